/**
 * A payout lifecycle with both event families (spec 6.4.7) delivered by the sandbox to an app using
 * PartnerPaymentsModule: each partner event reaches its handler once and each payout status is
 * announced once per family that reports it on the unified stream, even with every delivery sent
 * twice.
 */
import { PartnerDerivedEvent, type PartnerPayoutStatusEvent } from '@partner-payments/nestjs';
import { startPartnerSandbox, type PartnerSandbox } from '@partner-payments/testing';
import { createVerifiedUser, partnerApi } from './sandbox-api.fixture';
import { startWebhookTestApp, type WebhookTestApp } from './webhook-app.fixture';

describe('sandbox -> webhook pipeline, a payout lifecycle driven through the partner API (spec 6.4.7)', () => {
  let sandbox: PartnerSandbox;
  let t: WebhookTestApp;

  beforeAll(async () => {
    // The virtual account below is at bank_a; none is authorized by default (spec 2.4).
    sandbox = await startPartnerSandbox({ authorizedBanks: ['bank_a'] });
    t = await startWebhookTestApp({
      secrets: [sandbox.webhookSecret],
      baseUrl: sandbox.baseUrl,
      credentials: sandbox.credentials,
    });
    await sandbox.control.setWebhookUrl(t.url);
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  it('one payout lifecycle with both event families: each event once, each status once on the unified stream', async () => {
    // Resources are created over the sandbox's partner API (raw HTTP), so this suite depends only
    // on the webhook pipeline; the sandbox emits user.*, virtual_account.* and payout.* on its own.
    const api = await partnerApi(sandbox);
    const userId = await createVerifiedUser(sandbox, api);
    const va = await api('POST', '/v1/virtual-accounts', {
      user_id: userId,
      type: 'US_BANK',
      bank: 'bank_a',
    });
    const vaId = String(va.virtual_account_id ?? va.id);
    await sandbox.control.provisionVirtualAccount(vaId);
    await sandbox.control.simulateDeposit(vaId, { amount: '500.00', rail: 'WIRE' });
    const recipient = await api('POST', '/v1/recipients', {
      user_id: userId,
      type: 'individual',
      first_name: 'Bob',
      last_name: 'R',
      email: 'bob.r@example.com',
      address: { street_name: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      account: {
        account_type: 'WIRE',
        routing_number: '021000021',
        account_number: '123456789',
        type: 'checking',
        bank_name: 'B',
        bank_address: { street_name: '270 Park Ave', city: 'New York', state: 'NY', country: 'US' },
      },
    });
    const payout = await api('POST', `/v1/virtual-accounts/${vaId}/payout`, {
      amount: '100.00',
      currency: 'USD',
      recipient_id: recipient.recipient_id,
    });
    const payoutId = String(payout.payout_id ?? payout.id);
    await sandbox.control.advancePayout(payoutId, [
      { status: 'PROCESSING', events: 'both' },
      { status: 'KYT_PENDING' },
      { status: 'COMPLETED', events: 'both' },
    ]);
    const ids = (await sandbox.control.deliveries())
      .filter((d) => d.body.includes(payoutId))
      .map((d) => d.eventId!);
    for (const id of ids) await sandbox.control.sendDuplicate(id); // and every delivery a second time
    await sandbox.control.flushWebhooks();
    await t.service.processing.drain();

    expect(t.handlers.log.count('user.created')).toBe(1);
    expect(t.handlers.log.count('virtual_account.created')).toBe(1);
    expect(t.handlers.log.count('virtual_account.deposit_funds_received')).toBe(1);
    expect(t.handlers.log.count('payout.processing')).toBe(1);
    expect(t.handlers.log.count('payout.completed')).toBe(1);
    const forPayout = t.handlers.log.calls
      .filter((c) => c.handler === PartnerDerivedEvent.PayoutStatus)
      .map((c) => c.event as PartnerPayoutStatusEvent)
      .filter((s) => s.payoutId === payoutId)
      .map((s) => s.status);
    // PROCESSING and COMPLETED each arrived from both families (granular + V2), and every delivery
    // twice more as a duplicate: one unified status per family, duplicates absorbed by the inbox.
    expect(forPayout.filter((s) => s === 'PROCESSING')).toHaveLength(2);
    expect(forPayout.filter((s) => s === 'KYT_PENDING')).toHaveLength(1);
    expect(forPayout.filter((s) => s === 'COMPLETED')).toHaveLength(2);
    expect((await sandbox.control.deliveries()).every((d) => d.status === 200)).toBe(true);
  });
});
