/**
 * Reconciliation settles payouts from the partner's payout list (evidence §6), on a SQLite
 * file and on PostgreSQL. One pass over 1,000 payouts in flight, most unchanged and some moved at the
 * partner without any event reaching the app: ≤ 0.05 partner calls per payout (counted in the
 * sandbox's request log), ≤ 0.05 database reads per payout besides the writes, and the same statuses
 * the per-payout path (one GET each, RECONCILE_USE_LIST=false) settles on a copy of the same rows.
 */
import type { PartnerSandbox, RequestLogEntry } from '@partner-payments/testing';
import { DataSource } from 'typeorm';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { ReconciliationService } from '../../../apps/reference-app/src/reconciliation/reconciliation.service';
import { startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount } from '../../setup/funded-account.fixture';
import { PAYOUT_MIX, seedPayouts, storedStatuses, type SeededPayouts } from '../../setup/payout-seed.fixture';
import { countQueries } from '../../setup/query-counter.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(180_000);

const PAYOUTS = 1_000;

describe.each(DATABASE_KINDS)('reconciliation from the payout list on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let listing: RunningApp;
  let perPayout: RunningApp;
  let seeded: SeededPayouts;
  const cleanups: Array<() => void> = [];

  beforeAll(async () => {
    // The per-payout app runs with its rate budget off to count its calls; its 1,000 unpaced GETs
    // would meet the partner's 20/s, which the sandbox enforces by default (evidence §1).
    sandbox = await startTestSandbox({ rateLimit: false });
    const a = await databaseUrlFor(kind, 'recon-list');
    const b = await databaseUrlFor(kind, 'recon-get');
    cleanups.push(a.cleanup, b.cleanup);
    listing = await startTestApp(a.url, {}, sandbox);
    perPayout = await startTestApp(
      b.url,
      { RECONCILE_USE_LIST: 'false', PARTNER_RATE_BUDGET: 'off' },
      sandbox,
    );
    const account = await createFundedAccount(listing, `recon-${kind}`);
    seeded = await seedPayouts(
      sandbox.control,
      [listing.app.get(PartnerUnitOfWork), perPayout.app.get(PartnerUnitOfWork)],
      account,
      PAYOUTS,
    );
  });
  afterAll(async () => {
    await listing?.close();
    await perPayout?.close();
    await sandbox?.close();
    for (const cleanup of cleanups) cleanup();
  });

  /** Partner requests made while `work` ran, from the sandbox's own log. */
  const partnerRequests = async (work: () => Promise<unknown>): Promise<RequestLogEntry[]> => {
    const before = (await sandbox.control.requestLog()).length;
    await work();
    return (await sandbox.control.requestLog()).slice(before);
  };

  it('one pass: ≤ 0.05 partner calls and ≤ 0.05 database reads per payout, every status settled', async () => {
    const queries = countQueries(listing.app.get(DataSource));
    let summary: Awaited<ReturnType<ReconciliationService['runOnce']>> | undefined;
    const requests = await partnerRequests(async () => {
      summary = await listing.app.get(ReconciliationService).runOnce();
    });
    queries.stop();
    const byRoute = (route: string) => requests.filter((r) => r.route === route).length;
    expect(summary).toMatchObject({ ran: true, checked: PAYOUTS, failed: 0, opened: true });
    expect(requests.length).toBeLessThanOrEqual(0.05 * PAYOUTS);
    expect(byRoute('GET /v1/payouts')).toBe(summary!.pages);
    expect(summary!.pages).toBe(Math.ceil(PAYOUTS / 100)); // the seeded payouts are the whole list
    expect(byRoute('GET /v1/payouts/:id')).toBe(summary!.reads);
    expect(requests.every((r) => r.status === 200)).toBe(true);
    expect(queries.counts().reads).toBeLessThanOrEqual(0.05 * PAYOUTS);
    const statuses = await storedStatuses(listing.app.get(PartnerUnitOfWork), seeded.expected.keys());
    expect(statuses).toEqual(seeded.expected);
    const moved = [...seeded.scenarioOf.values()].filter((name) => {
      const scenario = PAYOUT_MIX.find((m) => m.name === name)!;
      return scenario.ours.status !== scenario.expected;
    });
    expect(summary!.changed).toBe(moved.length);
  });

  it('settles the same statuses as the per-payout path (one GET per payout) on a copy of the rows', async () => {
    let summary: Awaited<ReturnType<ReconciliationService['runOnce']>> | undefined;
    const requests = await partnerRequests(async () => {
      summary = await perPayout.app.get(ReconciliationService).runOnce();
    });
    expect(summary).toMatchObject({ ran: true, checked: PAYOUTS, pages: 0, reads: PAYOUTS });
    expect(requests.filter((r) => r.route === 'GET /v1/payouts/:id')).toHaveLength(PAYOUTS);
    const viaList = await storedStatuses(listing.app.get(PartnerUnitOfWork), seeded.expected.keys());
    const viaGet = await storedStatuses(perPayout.app.get(PartnerUnitOfWork), seeded.expected.keys());
    expect(viaList).toEqual(viaGet);
    // Both paths also agree on what each payout moved from.
    const previous = async (app: RunningApp) =>
      new Map(
        (await app.app.get(PartnerUnitOfWork).run((m) => m.find(PayoutEntity))).map((r) => [
          r.payoutId,
          r.previousStatus,
        ]),
      );
    expect(await previous(listing)).toEqual(await previous(perPayout));
  });
});
