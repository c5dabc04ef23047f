/**
 * GET /metrics after a scripted flow. Every counter the flow touches moves by exactly what
 * the flow did: a delivery accepted and processed, the same delivery again (duplicate), one with a
 * wrong signature (refused, mismatch), a reconciliation pass that changes a payout's status while
 * the partner answers its read with a 503 first (retried), a token refresh, a re-drive pass. The
 * route is operator-only. On SQLite and PostgreSQL (the inbox gauges read the database).
 */
import { randomUUID } from 'node:crypto';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { appRequest, eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { scrapeMetrics } from '../../setup/metrics.fixture';
import { createFundedAccount, postPayout, type FundedAccount } from '../../setup/funded-account.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(120_000);

describe.each(DATABASE_KINDS)('GET /metrics after a scripted flow (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'metrics');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    account = await createFundedAccount(running, `metrics-${kind}`);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const http = () => appRequest(running);
  const settle = async () => {
    await sandbox.control.flushWebhooks();
    await running.app.get(PartnerWebhookProcessingService).drain();
  };
  const deliver = (raw: string, secret = sandbox.webhookSecret) =>
    request(running.app.getHttpServer())
      .post('/webhooks/partner')
      .set('content-type', 'application/json')
      .set('x-signature-sha256', signPartnerWebhook(raw, secret))
      .send(raw);

  it('is operator-only', async () => {
    await request(running.app.getHttpServer()).get('/metrics').expect(401);
  });

  it('each counter moves by what the flow did', async () => {
    // Setup outside the counted window: a payout the partner has moved on without telling us.
    const { payoutId } = await postPayout(running, account);
    await sandbox.control.advancePayout(payoutId, { status: 'PENDING', events: 'none' });
    await settle();
    const before = await scrapeMetrics(running);

    // A delivery accepted (and processed), the same again, one with a wrong signature.
    const raw = JSON.stringify({
      event: 'user.updated',
      data: { event_id: `evt-${randomUUID()}`, user_id: account.userId },
    });
    expect((await deliver(raw).expect(200)).body.status).toBe('accepted');
    expect((await deliver(raw).expect(200)).body.status).toBe('duplicate');
    await deliver(raw, 'whsec_someone_else_entirely').expect(401);
    await settle();

    // Reconciliation reads the payout: a 503 first (retried), then PENDING: the status changes.
    await sandbox.control.addFault({ kind: 'server_error', route: 'GET /v1/payouts/:id', status: 503 });
    const pass = await http().post('/reconciliation/run').expect(200);
    expect(pass.body).toMatchObject({ ran: true, checked: 1, changed: 1, failed: 0 });
    const row = await running.app
      .get(PartnerUnitOfWork)
      .run((m) => m.findOneByOrFail(PayoutEntity, { payoutId }));
    expect(row.status).toBe('PENDING');

    // A token refresh: the partner expires our token, the next call re-authenticates.
    await sandbox.control.expireTokensNow();
    await http().get(`/virtual-accounts/${account.virtualAccountId}/balance`).expect(200);
    await http().post('/payouts/redrive/run').expect(200);

    const after = await eventually(
      async () => {
        const s = await scrapeMetrics(running);
        const processed = { outcome: 'processed', event: 'user.updated' };
        const done =
          s.value('partner_webhook_processing_total', processed) -
          before.value('partner_webhook_processing_total', processed);
        return done >= 1 ? s : undefined;
      },
      5000,
      'the accepted delivery to be processed',
    );
    const delta = (name: string, labels?: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);

    expect(delta('partner_webhooks_received_total', { outcome: 'accepted', reason: '' })).toBe(1);
    expect(delta('partner_webhooks_received_total', { outcome: 'duplicate', reason: '' })).toBe(1);
    expect(delta('partner_webhooks_received_total', { outcome: 'refused', reason: 'mismatch' })).toBe(1);
    expect(delta('partner_webhook_processing_total', { outcome: 'processed', event: 'user.updated' })).toBe(
      1,
    );
    expect(delta('partner_webhook_processing_total', { outcome: 'failed', event: 'user.updated' })).toBe(0);

    expect(delta('reconciliation_passes_total', { job: 'payouts' })).toBe(1);
    expect(delta('reconciliation_items_total', { job: 'payouts', result: 'checked' })).toBe(1);
    expect(delta('reconciliation_items_total', { job: 'payouts', result: 'changed' })).toBe(1);
    expect(delta('reconciliation_items_total', { job: 'payouts', result: 'failed' })).toBe(0);

    const read = { route: '/v1/payouts/{payout_id}', method: 'GET' };
    const attempts = (statusClass: string, attempt: string) =>
      delta('partner_http_request_duration_seconds_count', {
        ...read,
        status_class: statusClass,
        attempt,
      });
    expect(attempts('5xx', '1')).toBe(1);
    expect(attempts('2xx', '2')).toBe(1);
    expect(attempts('2xx', '1')).toBe(0);
    expect(delta('partner_http_retries_total', { ...read, status_class: '5xx' })).toBe(1);

    expect(delta('partner_token_refreshes_total')).toBe(1);
    expect(delta('partner_token_failures_total', { reason: 'unavailable' })).toBe(0);
    expect(delta('payout_redrive_passes_total')).toBe(1);

    // The inbox, read at scrape time: nothing left behind.
    expect(after.value('partner_inbox_entries', { state: 'dead' })).toBe(0);
    expect(after.value('partner_inbox_entries', { state: 'pending' })).toBe(0);
    expect(after.families).toContain('partner_inbox_oldest_unprocessed_age_seconds');
    // No id ever becomes a label: the payout's id is only in the route template.
    expect(after.text).not.toContain(payoutId);
  });
});
