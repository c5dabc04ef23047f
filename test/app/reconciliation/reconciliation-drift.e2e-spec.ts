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
  const drain = () => running.app.get(PartnerWebhookProcessingService).drain();
  /** Delivers a signed event and waits until it is handled. */
  const deliver = async (body: object) => {
    await deliverSignedWebhook(running, JSON.stringify(body), sandbox.webhookSecret).expect(200);
    await drain();
  };

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

  it('a hold that lands while the pass reads the payout is stored once; the reference number it lacks follows', async () => {
    const { payoutId } = await postPayout(running, account);
    await sandbox.control.flushWebhooks();
    await drain();
    // The partner assigns reference_number when it sends the payment (spec 6.4.4), at PROCESSING
    // here, but only the terminal flat events carry it (spec 6.4 note 4): payout.processing does not.
    const sent = await sandbox.control.advancePayout(payoutId, { status: 'PROCESSING', events: 'none' });
    expect(sent.reference_number).toEqual(expect.any(String));
    await deliver({
      event: 'payout.processing',
      data: { event_id: randomUUID(), payout_id: payoutId, status: 'processing' },
    });
    const processing = await row(payoutId);
    expect(processing).toMatchObject({ status: 'PROCESSING', referenceNumber: null });
    await sandbox.control.advancePayout(payoutId, { status: 'IN_REVIEW', events: 'none' });
    // Every read of this pass held (the earlier tests' payouts are checked too), so the hold lands
    // between the claim and the settlement whichever payout is read first.
    await sandbox.control.addFault({
      kind: 'latency',
      route: 'GET /v1/payouts/:id',
      latencyMs: READ_LATENCY_MS,
    });
    let heldVersion = Number.NaN;
    try {
      const pass = running.app.get(ReconciliationService).runOnce();
      await eventually(
        async () => ((await row(payoutId)).lastCheckedAt ? true : undefined),
        10_000,
        'the pass to claim the payout',
      );
      await deliver({
        event: 'payout.status_changed',
        data: {
          event_id: randomUUID(),
          event_type: 'payout.status_changed',
          created_at: new Date().toISOString(),
          data: { payout_id: payoutId, status: 'IN_REVIEW', previous_status: 'PROCESSING', amount: '42.00' },
        },
      });
      const held = await row(payoutId);
      heldVersion = held.version;
      expect(held).toMatchObject({
        status: 'IN_REVIEW',
        previousStatus: 'PROCESSING',
        referenceNumber: null,
        lastSource: 'webhook',
        version: processing.version + 1,
      });
      // The pass read IN_REVIEW with the hold already stored: its status write lost, not drift.
      expect(await pass).toMatchObject({ ran: true, changed: 0, failed: 0 });
    } finally {
      await sandbox.control.clearFaults();
    }
    // Decided again against the hold's row: the status stays as the hold stored it (not written a
    // second time), and the reference number, on the resource only, is filled in by one more write.
    const after = await row(payoutId);
    expect(after).toMatchObject({
      status: 'IN_REVIEW',
      previousStatus: 'PROCESSING',
      referenceNumber: sent.reference_number,
      lastSource: 'reconciliation',
      version: heldVersion + 1,
    });
    // Nothing left to learn: a further pass writes nothing.
    expect(await running.app.get(ReconciliationService).runOnce()).toMatchObject({ changed: 0, failed: 0 });
    expect((await row(payoutId)).version).toBe(after.version);
  });
});
