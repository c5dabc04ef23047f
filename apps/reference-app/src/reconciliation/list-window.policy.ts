/** One calendar day (UTC) of the payouts table: how many payouts we hold, how many are to be checked. */
export interface PayoutDay {
  /** YYYY-MM-DD. */
  day: string;
  payouts: number;
  candidates: number;
}

export interface ListWindow {
  /** The list's `from_date`; null: reading every candidate by GET is cheaper than any list. */
  fromDate: string | null;
  /** Candidates created before this instant are read one by one (the list starts after them). */
  readBefore: Date | null;
  /** Partner calls the choice is expected to cost: list pages plus single reads. */
  expectedCalls: number;
}

/** The partner's largest page (evidence §6: limit ≤ 100). */
export const LIST_PAGE_SIZE = 100;

/**
 * List pages a replica takes at a time, read one after the other, their payouts claimed and settled
 * together: the database statements of a run (take, claim, the settlement's transaction,
 * settled) are paid once per 400 payouts instead of once per 100, while the work still splits
 * finely across replicas (250 runs for 100,000 payouts).
 */
export const LIST_PAGES_PER_TAKE = 4;

const DAY_MS = 86_400_000;
const dayBefore = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) - DAY_MS).toISOString().slice(0, 10);

/**
 * Where the pass starts reading the partner's payout list. The list can only be narrowed by date
 * (evidence §6: user_id, status, from_date, to_date; a status filter would hide exactly the payouts
 * whose status moved), so a window reaching back to one payout stuck in review for a month would
 * page through a month of payouts on every pass. Each possible start day is priced: the pages of
 * every payout we hold from the day before it (one day of margin: the partner's day may not be
 * ours, and its created_at precedes our row's) plus one GET per candidate older than it; the
 * cheapest wins. Our own count is a lower bound of the list (other integrations of the account
 * add to it), which is why a tie goes to fewer list pages. Pure; `days` in ascending order.
 */
export function chooseListWindow(days: readonly PayoutDay[], pageSize = LIST_PAGE_SIZE): ListWindow {
  const totalCandidates = days.reduce((n, d) => n + d.candidates, 0);
  let best: ListWindow = { fromDate: null, readBefore: null, expectedCalls: totalCandidates };
  let readsBefore = 0;
  for (let i = 0; i < days.length; i++) {
    if (days[i].candidates > 0) {
      const fromDate = dayBefore(days[i].day);
      const listed =
        days.slice(i).reduce((n, d) => n + d.payouts, 0) +
        (days[i - 1]?.day === fromDate ? days[i - 1].payouts : 0);
      const calls = Math.max(1, Math.ceil(listed / pageSize)) + readsBefore;
      if (calls < best.expectedCalls)
        best = { fromDate, readBefore: new Date(`${days[i].day}T00:00:00.000Z`), expectedCalls: calls };
    }
    readsBefore += days[i].candidates;
  }
  return best;
}
