/**
 * Reconciliation's drift (changed = a status no webhook told us; docs/operations.md alerts
 * on it) counts only what reconciliation itself changed. A pass claims a payout, then reads it from
 * the partner; if the payout's webhook arrives meanwhile and moves the row, the pass's write loses
 * the optimistic lock and changes nothing: that is not drift, and counting it would page on-call
 * for a webhook that was not missed. On a SQLite file and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { ReconciliationService } from '../../../apps/reference-app/src/reconciliation/reconciliation.service';
import { deliverSignedWebhook, eventually } from '../../setup/app.fixture';
import { postPayout, useFundedApp, type FundedAccount } from '../../setup/funded-account.fixture';
import { scrapeMetrics } from '../../setup/metrics.fixture';
import { DATABASE_KINDS } from '../../setup/test-database.fixture';

jest.setTimeout(90_000);

/** How long the partner holds its answer to the pass's read: the webhook lands well inside it. */
const READ_LATENCY_MS = 3000;

describe.each(DATABASE_KINDS)('reconciliation drift on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let account: FundedAccount;
  // Every payout read by GET, so the read happens between the claim and the settlement.
  useFundedApp(kind, 'recon-drift', `drift-${kind}`, (world) => ({ sandbox, running, account } = world), {
    RECONCILE_USE_LIST: 'false',
  });

  const row = (payoutId: string) =>
    running.app.get(PartnerUnitOfWork).run((m) => m.findOneByOrFail(PayoutEntity, { payoutId }));

  it('a webhook that lands while the pass reads the payout is not counted as drift', async () => {
    const { payoutId } = await postPayout(running, account);
    await sandbox.control.flushWebhooks();
    await running.app.get(PartnerWebhookProcessingService).drain();
    expect((await row(payoutId)).status).toBe('CREATED');
    // The partner moves it; its webhook is late (sent below, while the pass reads the payout).
    await sandbox.control.advancePayout(payoutId, { status: 'PENDING', events: 'none' });
    await sandbox.control.addFault({
      kind: 'latency',
      route: 'GET /v1/payouts/:id',
      latencyMs: READ_LATENCY_MS,
      times: 1,
    });
    const before = await scrapeMetrics(running);

    const pass = running.app.get(ReconciliationService).runOnce();
    // Claimed (last_checked_at set): the pass now waits on the partner's answer.
    await eventually(
      async () => ((await row(payoutId)).lastCheckedAt ? true : undefined),
      10_000,
      'the pass to claim the payout',
    );
    const raw = JSON.stringify({
      event: 'payout.pending',
      data: { event_id: `evt-${randomUUID()}`, payout_id: payoutId, status: 'pending' },
    });
    await deliverSignedWebhook(running, raw, sandbox.webhookSecret).expect(200);
    await running.app.get(PartnerWebhookProcessingService).drain();
    const afterWebhook = await row(payoutId);
    expect(afterWebhook).toMatchObject({ status: 'PENDING', lastSource: 'webhook' });

    const summary = await pass;
    expect(summary).toMatchObject({ ran: true, checked: 1, reads: 1, failed: 0 });
    // The webhook said it first: the pass changed nothing.
    expect(summary.changed).toBe(0);
    expect(await row(payoutId)).toMatchObject({
      status: 'PENDING',
      lastSource: 'webhook',
      version: afterWebhook.version,
    });
    const after = await scrapeMetrics(running);
    const drift = { job: 'payouts', result: 'changed' };
    expect(
      after.value('reconciliation_items_total', drift) - before.value('reconciliation_items_total', drift),
    ).toBe(0);
  });

  it('a change only the partner knew is still drift', async () => {
    const { payoutId } = await postPayout(running, account);
    await sandbox.control.flushWebhooks();
    await running.app.get(PartnerWebhookProcessingService).drain();
    await sandbox.control.advancePayout(payoutId, { status: 'PENDING', events: 'none' });
    // (The first test's payout, still PENDING, is checked too: unchanged.)
    const summary = await running.app.get(ReconciliationService).runOnce();
    expect(summary).toMatchObject({ ran: true, checked: 2, changed: 1, failed: 0 });
    expect(await row(payoutId)).toMatchObject({ status: 'PENDING', lastSource: 'reconciliation' });
  });
});
