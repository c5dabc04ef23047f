/**
 * Bank returns found late: COMPLETED is never final (spec 3.4, evidence §6: a bank return moves a
 * payout to FAILED) and a lost payout.returned is never re-sent (spec 6.1.4). Within
 * RECONCILE_COMPLETED_WINDOW_HOURS a COMPLETED payout is checked every pass; past it, once a day
 * up to RECONCILE_RETURN_HORIZON_DAYS after its last change (before, a return after 72 h was never
 * found: the review's reproduction). On a SQLite file and on PostgreSQL.
 */
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { APP_CONFIG, type AppConfig } from '../../../apps/reference-app/src/config/app.config';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { UnitOfWork } from '../../../apps/reference-app/src/database/unit-of-work.service';
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
  let uow: UnitOfWork;
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
  /** The row as if its last change (and last check) were that long ago. */
  const age = (payoutId: string, changedMsAgo: number, checkedMsAgo: number | null = changedMsAgo) =>
    uow.run((m) =>
      m.update(
        PayoutEntity,
        { payoutId },
        {
          updatedAt: new Date(Date.now() - changedMsAgo),
          lastCheckedAt: checkedMsAgo === null ? null : new Date(Date.now() - checkedMsAgo),
        },
      ),
    );

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

  it('past the window a COMPLETED payout is checked once a day, not every pass', async () => {
    const id = await completedPayout();
    // Read once while fresh: what only the resource carries (its reference_number, spec 6.4.4) is a
    // change of the row, which starts its window again.
    await pass();
    await age(id, 10 * DAY, 25 * HOUR);
    await pass();
    const first = (await row(id)).lastCheckedAt;
    expect(Date.now() - first!.getTime()).toBeLessThan(HOUR); // checked this pass
    await pass();
    expect((await row(id)).lastCheckedAt).toEqual(first); // not again the same day
    await age(id, 10 * DAY, 23 * HOUR);
    await pass();
    expect(Date.now() - (await row(id)).lastCheckedAt!.getTime()).toBeGreaterThan(22 * HOUR);
    await age(id, 10 * DAY, 25 * HOUR);
    await pass();
    expect(Date.now() - (await row(id)).lastCheckedAt!.getTime()).toBeLessThan(HOUR);
    expect((await row(id)).status).toBe('COMPLETED');
  });

  it('RECONCILE_RETURN_HORIZON_DAYS 0: past the window nothing is a candidate', async () => {
    const id = await completedPayout();
    await age(id, 5 * DAY, 2 * DAY);
    const candidates = async (claims: PayoutClaims) =>
      (await claims.days(new Date())).reduce((n, d) => n + d.candidates, 0);
    const withHorizon = await candidates(new PayoutClaims(uow, 72, 60));
    const without = await candidates(new PayoutClaims(uow, 72, 0));
    expect(withHorizon - without).toBeGreaterThanOrEqual(1);
    // The one aged here is what differs: within 60 days, checked over a day ago.
    await age(id, 61 * DAY, 2 * DAY);
    expect(await candidates(new PayoutClaims(uow, 72, 60))).toBe(withHorizon - 1);
  });
});
