import { PartnerSandboxControlClient, signPartnerWebhook } from '@partner-payments/testing';
import { CONTROL_OPERATIONS } from '../../libs/partner-payments-testing/src/control/control.constants';
import { individual, startWorld, stopWorld, type World } from './sandbox.fixture';
import { fundedSetup } from './funded-setup.fixture';

describe('sandbox: control API over HTTP (PartnerSandboxControlClient)', () => {
  let world: World;
  let control: PartnerSandboxControlClient;
  beforeEach(async () => {
    world = await startWorld();
    control = new PartnerSandboxControlClient(world.sandbox.sandboxBaseUrl);
  });
  afterEach(() => stopWorld(world));

  it('GET /__control lists every operation, outside the partner auth and the request log', async () => {
    const answer = await fetch(world.sandbox.controlUrl);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { operations: string[] }).operations).toEqual([...CONTROL_OPERATIONS]);
    const unknown = await fetch(`${world.sandbox.controlUrl}/explode`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect((await control.requestLog()).map((l) => l.route)).toEqual(['POST /auth']);
  });

  it('drives a whole scenario: payouts, RFIs, deposits, webhooks, counters', async () => {
    const ids = await fundedSetup(world.api);
    const created = await world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
      body: { amount: '9.99', currency: 'USD', recipient_id: ids.recipientId },
    });
    const view = await control.advancePayout(created.body.id, [
      'PENDING',
      { status: 'IN_REVIEW', reviewReason: 'manual' },
    ]);
    expect(view).toMatchObject({ payout_id: created.body.id, status: 'IN_REVIEW', reference_number: null });
    const rfi = await control.seedRfi({ userId: ids.userId, items: [{ answer_type: 'boolean' }] });
    expect(rfi.itemIdsByType.boolean).toBe(rfi.itemIds[0]);
    const returned = await control.returnRfiItem(rfi.rfiId, rfi.itemIds[0], 'again please');
    expect(returned.review_note).toBe('again please');
    const { depositId } = await control.simulateDeposit(ids.vaId, { rail: 'ACH' });
    expect(depositId).toEqual(expect.any(String));
    await control.flushWebhooks();
    const deliveries = await control.waitForDeliveries({ event: 'payout.status_changed', count: 2 });
    expect(deliveries.map((d) => JSON.parse(d.body).data.data.status)).toEqual(['PENDING', 'IN_REVIEW']);
    const counters = await control.counters();
    expect(counters.created).toMatchObject({
      users: 1,
      recipients: 1,
      virtual_accounts: 1,
      payouts: 1,
      deposits: 2, // the funding deposit of the setup and the ACH one
      rfis: 1,
    });
    const { secret } = await control.rotateWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
  });

  it('optional arguments survive JSON (undefined in the middle) and errors come back as rejections', async () => {
    const { eventId } = await control.emitEvent('user.updated', undefined, { signWithPreviousSecret: false });
    await world.receiver.waitFor(1);
    expect(world.receiver.received[0].body).toEqual({ event: 'user.updated', data: { event_id: eventId } });
    await expect(control.advancePayout(crypto.randomUUID(), 'COMPLETED')).rejects.toThrow(/unknown payout/);
    await expect(control.waitForDeliveries({ event: 'never', timeoutMs: 50 })).rejects.toThrow(/timed out/);
  });

  it('rotateWebhookSecret passes its options over HTTP after undefined arguments, and answers the window', async () => {
    const atOnce = await control.rotateWebhookSecret(undefined, undefined, { overlapMs: 0 });
    expect(atOnce).toEqual({
      secret: expect.stringMatching(/^whsec_/),
      previousSecret: 'whsec_e2e_secret',
      previousSecretSignsUntil: expect.any(String),
    });
    expect(Date.parse(atOnce.previousSecretSignsUntil)).toBeLessThanOrEqual(Date.now());
    await control.emitEvent('user.updated', { user_id: 'at-once' });
    const [first] = await world.receiver.waitFor(1); // the receiver knows only the old secret
    expect(first.validSignature).toBe(false);
    expect(first.headers['x-signature-sha256']).toBe(signPartnerWebhook(first.raw, atOnce.secret));
    // No options: the partner's window (evidence §9), the replaced secret keeps signing.
    const windowed = await control.rotateWebhookSecret('whsec_third');
    expect(Date.parse(windowed.previousSecretSignsUntil)).toBeGreaterThan(Date.now() + 55_000);
    await control.emitEvent('user.updated', { user_id: 'windowed' });
    const second = (await world.receiver.waitFor(2))[1];
    expect(second.headers['x-signature-sha256']).toBe(signPartnerWebhook(second.raw, atOnce.secret));
    await expect(control.rotateWebhookSecret(undefined, undefined, { overlapMs: -1 })).rejects.toThrow(
      /overlapMs must be a number of milliseconds/,
    );
  });

  it('faults, token expiry, next verification outcome and reset work over HTTP', async () => {
    await control.addFault({ kind: 'server_error', route: 'GET /v1/users', times: 1 });
    expect((await world.api.call('GET', '/v1/users')).status).toBe(503);
    await control.expireTokensNow();
    expect((await world.api.call('GET', '/v1/users')).status).toBe(401);
    await world.api.login();
    await control.setNextVerificationOutcome('declined');
    const user = await world.api.call('POST', '/v1/users', { body: individual() });
    expect((await world.api.call('GET', `/v1/users/${user.body.id}`)).body.status).toBe('REJECTED');
    await control.setNextVerificationOutcome(null);
    const next = await world.api.call('POST', '/v1/users', { body: individual() });
    expect((await world.api.call('GET', `/v1/users/${next.body.id}`)).body.status).toBe('REVIEW');
    // spec 3.3 over HTTP too: a failing provider call cannot end in REJECTED.
    expect(await control.setUserVerificationOutcome(next.body.id, 'provider_outage')).toBe('VERIFYING');
    await expect(control.setUserVerificationOutcome(next.body.id, 'declined')).rejects.toThrow(
      /never rejects/,
    );
    expect(await control.setUserVerificationOutcome(next.body.id, 'approved', { reasons: ['ignored'] })).toBe(
      'VERIFIED',
    );
    await control.reset();
    expect((await control.counters()).created.users).toBe(0);
    expect(await control.deliveries()).toEqual([]);
    await world.api.login();
    expect((await world.api.call('GET', '/v1/users')).body.pagination.total).toBe(0);
  });
});
