/**
 * Bank returns found late: COMPLETED is never final (spec 3.4, evidence §6: a bank return moves a
 * payout to FAILED) and a lost payout.returned is never re-sent (spec 6.1.4). Within
 * RECONCILE_COMPLETED_WINDOW_HOURS a COMPLETED payout is checked every pass; past it, once per UTC
 * day (all together, so the list prices them) up to RECONCILE_RETURN_HORIZON_DAYS after its last change (before, a return after 72 h was never
 * found: the review's reproduction). On a SQLite file and on PostgreSQL.
 */
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { APP_CONFIG, type AppConfig } from '../../../apps/reference-app/src/config/app.config';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PayoutClaims } from '../../../apps/reference-app/src/reconciliation/payout-claims.store';
import { ReconciliationService } from '../../../apps/reference-app/src/reconciliation/reconciliation.service';
import { eventually } from '../../setup/app.fixture';
import { postPayout, useFundedApp, type FundedAccount } from '../../setup/funded-account.fixture';
import { DATABASE_KINDS } from '../../setup/test-database.fixture';

jest.setTimeout(120_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DATABASE_KINDS)('bank returns past the completed window on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let account: FundedAccount;
  let uow: PartnerUnitOfWork;
  useFundedApp(kind, 'returns', `ret-${kind}`, (w) => ({ sandbox, running, account, uow } = w));

  const row = (payoutId: string) => uow.run((m) => m.findOneByOrFail(PayoutEntity, { payoutId }));
  const pass = () => running.app.get(ReconciliationService).runOnce();
  const completedPayout = async () => {
    const { payoutId } = await postPayout(running, account);
    await sandbox.control.advancePayout(payoutId, ['PENDING', 'PROCESSING', 'COMPLETED']);
    await sandbox.control.flushWebhooks();
    await running.app.get(PartnerWebhookProcessingService).drain();
    await eventually(async () => ((await row(payoutId)).status === 'COMPLETED' ? true : undefined));
    return payoutId;
  };
  /** The row as if its last change were that long ago, last checked at `checkedAt` (default: then). */
  const age = (payoutId: string, changedMsAgo: number, checkedAt?: number) => {
    const changed = Date.now() - changedMsAgo;
    return uow.run((m) =>
      m.update(
        PayoutEntity,
        { payoutId },
        { updatedAt: new Date(changed), lastCheckedAt: new Date(checkedAt ?? changed) },
      ),
    );
  };

  it('the payouts past the window fall due together, once a day: one pass lists them, about a page per 100', async () => {
    // Before, each fell due 24 h after its own last check, so the checks spread over the day, a few
    // per pass, and each pass priced one GET each (24 payouts: 24 GETs a day instead of one page).
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await completedPayout());
    await pass(); // read once while fresh (see below)
    const midnight = Math.floor(Date.now() / DAY) * DAY;
    for (const [i, id] of ids.entries())
      // completed 4 to 50 days ago at different hours; last checked at different hours yesterday
      await age(id, (4 + 2 * i) * DAY + i * HOUR, midnight - (i + 1) * HOUR);
    const before = (await sandbox.control.requestLog()).length;
    const first = await pass();
    expect(first).toMatchObject({ checked: 24, failed: 0 });
    const calls = (await sandbox.control.requestLog()).slice(before).map((l) => l.route);
    expect(calls).toEqual(['GET /v1/payouts']); // one list page, no GET per payout
    expect(await pass()).toMatchObject({ checked: 0, pages: 0, reads: 0 }); // done for today
  });

  it('a return the webhook never told is found inside the window, and past it within the horizon; not past the horizon', async () => {
    const config = running.app.get<AppConfig>(APP_CONFIG).reconcile;
    expect(config).toMatchObject({ completedWindowHours: 72, returnHorizonDays: 60 });
    const recent = await completedPayout();
    const old = await completedPayout();
    const ancient = await completedPayout();
    await age(recent, 71 * HOUR);
    await age(old, 73 * HOUR);
    await age(ancient, 61 * DAY);
    // The bank returns all three; payout.returned never reaches the app.
    for (const id of [recent, old, ancient])
      await sandbox.control.advancePayout(id, { status: 'RETURNED', events: 'none' });
    await pass();
    expect((await row(recent)).status).toBe('FAILED');
    expect((await row(old)).status).toBe('FAILED');
    // Past the horizon the app no longer asks: the partner's answer would still be FAILED.
    await pass();
    expect((await row(ancient)).status).toBe('COMPLETED');
  });

  it('past the window a COMPLETED payout is checked once per UTC day, not every pass', async () => {
    const id = await completedPayout();
    // Read once while fresh: what only the resource carries (its reference_number, spec 6.4.4) is a
    // change of the row, which starts its window again.
    await pass();
    const midnight = Math.floor(Date.now() / DAY) * DAY;
    await age(id, 10 * DAY, midnight - 1); // last checked just before today's UTC midnight
    await pass();
    const first = (await row(id)).lastCheckedAt!;
    expect(first.getTime()).toBeGreaterThanOrEqual(midnight); // checked this pass
    await pass();
    expect((await row(id)).lastCheckedAt).toEqual(first); // not again the same day
    await age(id, 10 * DAY, midnight); // checked at midnight: today's check is done
    await pass();
    expect((await row(id)).lastCheckedAt!.getTime()).toBe(midnight);
    expect((await row(id)).status).toBe('COMPLETED');
  });

  it('RECONCILE_RETURN_HORIZON_DAYS 0: past the window nothing is a candidate', async () => {
    const id = await completedPayout();
    await age(id, 5 * DAY, Date.now() - 2 * DAY);
    const candidates = async (claims: PayoutClaims) =>
      (await claims.days(new Date())).reduce((n, d) => n + d.candidates, 0);
    const withHorizon = await candidates(new PayoutClaims(uow, 72, 60));
    const without = await candidates(new PayoutClaims(uow, 72, 0));
    expect(withHorizon - without).toBeGreaterThanOrEqual(1);
    // The one aged here is what differs: within 60 days, checked over a day ago.
    await age(id, 61 * DAY, Date.now() - 2 * DAY);
    expect(await candidates(new PayoutClaims(uow, 72, 60))).toBe(withHorizon - 1);
  });
});
