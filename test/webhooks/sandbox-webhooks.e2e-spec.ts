/**
 * The sandbox (libs/partner-payments-testing) delivers signed webhooks over real HTTP to an app
 * using PartnerPaymentsModule. Every documented event reaches its typed handler exactly once;
 * duplicates, re-orderings and a secret rotation are absorbed (spec 6.1, 6.3, 6.4.7; evidence §9:
 * the old secret keeps signing for about a minute after a rotation).
 */
import { PartnerDerivedEvent, type PartnerPayoutStatusEvent } from '@partner-payments/nestjs';
import { PARTNER_CONTRACT_EVENTS } from '../../libs/partner-payments/src/webhooks/events/partner-event.constants';
import { startPartnerSandbox, type PartnerSandbox } from '@partner-payments/testing';
import { randomUUID } from 'node:crypto';
import { startWebhookTestApp, type WebhookTestApp } from './webhook-app.fixture';

describe('sandbox -> webhook pipeline (spec 6)', () => {
  let sandbox: PartnerSandbox;
  let t: WebhookTestApp;
  let originalSecret: string;

  beforeAll(async () => {
    sandbox = await startPartnerSandbox();
    originalSecret = sandbox.webhookSecret;
    t = await startWebhookTestApp({
      secrets: [originalSecret],
      baseUrl: sandbox.baseUrl,
      credentials: sandbox.credentials,
    });
    await sandbox.control.setWebhookUrl(t.url);
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });
  beforeEach(async () => {
    await sandbox.control.flushWebhooks();
    await t.service.processing.drain();
    t.handlers.log.calls.length = 0;
  });

  /** Waits for the sandbox to send everything and the app to run every handler. */
  async function settle(): Promise<void> {
    await sandbox.control.flushWebhooks();
    await t.service.processing.drain();
  }
  const statuses = () =>
    t.handlers.log.calls
      .filter((c) => c.handler === PartnerDerivedEvent.PayoutStatus)
      .map((c) => c.event as PartnerPayoutStatusEvent);

  it('delivers every documented event, emitted by the sandbox, to its typed handler exactly once', async () => {
    const payoutId = randomUUID();
    const recipient = { recipient_id: randomUUID(), type: 'individual', first_name: 'A', last_name: 'B' };
    const data: Record<string, Record<string, unknown>> = {
      'user.created': { user_id: randomUUID(), status: 'CREATED', metadata: {} },
      'user.updated': { user_id: randomUUID() },
      'user.status_changed': { user_id: randomUUID(), previous_status: 'CREATED', new_status: 'VERIFYING' },
      'user.verification.accepted': { user_id: randomUUID() },
      'user.verification.failed': { user_id: randomUUID(), reasons: ['declined'] },
      'user.liveness_completed': { user_id: randomUUID(), person_reference_id: null, result: 'passed' },
      'virtual_account.created': {
        virtual_account_id: randomUUID(),
        user_id: randomUUID(),
        status: 'approved',
        metadata: {},
      },
      'virtual_account.deposit_funds_received': {
        virtual_account_id: randomUUID(),
        deposit_id: randomUUID(),
        amount: '5.00',
      },
      'virtual_account.microdeposit_funds_received': {
        virtual_account_id: randomUUID(),
        deposit_id: randomUUID(),
        amount: '0.01',
      },
      'payout.created': { payout_id: payoutId, status: 'created' },
      'payout.pending': { payout_id: payoutId, status: 'pending' },
      'payout.processing': { payout_id: payoutId, status: 'processing' },
      'payout.status_changed': {
        data: { payout_id: payoutId, status: 'KYT_PENDING', previous_status: 'PROCESSING', amount: '1' },
      },
      'payout.completed': { payout_id: payoutId, status: 'completed', reference_number: 'REF', recipient },
      'payout.failed': { payout_id: payoutId, status: 'failed', reference_number: 'REF', recipient },
      'payout.returned': { payout_id: payoutId, status: 'returned', reference_number: 'REF', recipient },
    };
    expect(Object.keys(data).sort()).toEqual([...PARTNER_CONTRACT_EVENTS].sort());
    for (const [name, payload] of Object.entries(data)) await sandbox.control.emitEvent(name, payload);
    await settle();

    const deliveries = await sandbox.control.deliveries();
    expect(deliveries.map((d) => d.status)).toEqual(Array(16).fill(200));
    for (const name of PARTNER_CONTRACT_EVENTS)
      expect({ name, calls: t.handlers.log.count(name) }).toEqual({ name, calls: 1 });
    const v2 = t.handlers.log.calls.find((c) => c.handler === 'payout.status_changed')?.event;
    expect(v2).toMatchObject({ envelope: 'v2', status: 'KYT_PENDING', previousStatus: 'PROCESSING' });
    // One unified status per payout delivery: failed and returned both resolve the payout to
    // FAILED (spec 3.4), each announced from its own delivery.
    expect(statuses().map((s) => [s.status, s.eventName])).toEqual([
      ['CREATED', 'payout.created'],
      ['PENDING', 'payout.pending'],
      ['PROCESSING', 'payout.processing'],
      ['KYT_PENDING', 'payout.status_changed'],
      ['COMPLETED', 'payout.completed'],
      ['FAILED', 'payout.failed'],
      ['FAILED', 'payout.returned'],
    ]);
  });

  it('absorbs duplicate deliveries of the same bytes (spec 6.1.4)', async () => {
    const { eventId } = await sandbox.control.emitEvent('user.updated', { user_id: randomUUID() });
    await sandbox.control.sendDuplicate(eventId);
    await sandbox.control.sendDuplicate(eventId);
    await settle();
    const deliveries = (await sandbox.control.deliveries()).filter((d) => d.eventId === eventId);
    expect(deliveries).toHaveLength(3);
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    expect(t.handlers.log.count('user.updated')).toBe(1);
  });

  it('absorbs re-ordered deliveries: each event processed once', async () => {
    const payoutId = randomUUID();
    await sandbox.control.reorderNext(3);
    await sandbox.control.emitEvent('payout.pending', { payout_id: payoutId, status: 'pending' });
    await sandbox.control.emitEvent('payout.processing', { payout_id: payoutId, status: 'processing' });
    await sandbox.control.emitEvent('payout.completed', {
      payout_id: payoutId,
      status: 'completed',
      reference_number: 'R',
      recipient: {},
    });
    await settle();
    const arrived = t.handlers.log.calls.filter((c) => c.handler.startsWith('payout.')).map((c) => c.handler);
    expect(arrived).toEqual(['payout.completed', 'payout.processing', 'payout.pending']);
    // The unified stream reports what arrived, in arrival order, each once; a projection ignores
    // regressions by its own transition rule (decidePayoutStatusChange; the reference app does).
    expect(statuses().map((s) => s.status)).toEqual(['COMPLETED', 'PROCESSING', 'PENDING']);
  });

  it('accepts deliveries signed with the previous secret during a rotation (old and new configured; explicit choices, no window)', async () => {
    // overlapMs 0: only the explicit signNextWithPreviousSecret picks the old secret here.
    const { secret, previousSecret } = await sandbox.control.rotateWebhookSecret(undefined, undefined, {
      overlapMs: 0,
    });
    const rotated = await startWebhookTestApp({
      secrets: [secret, previousSecret],
      controllerPath: '/hooks/rotated',
    });
    try {
      await sandbox.control.setWebhookUrl(rotated.url);
      await sandbox.control.signNextWithPreviousSecret(1);
      await sandbox.control.emitEvent('user.updated', { user_id: randomUUID() });
      await sandbox.control.emitEvent('user.updated', { user_id: randomUUID() });
      await sandbox.control.flushWebhooks();
      await rotated.service.processing.drain();
      const last = (await sandbox.control.deliveries()).slice(-2);
      expect(last.map((d) => [d.signedWithPreviousSecret, d.status])).toEqual([
        [true, 200],
        [false, 200],
      ]);
      expect(rotated.handlers.log.count('user.updated')).toBe(2);
    } finally {
      await sandbox.control.setWebhookUrl(t.url);
      await rotated.close();
    }
    // The first app only knows the old secret: a delivery signed with the new one is refused, 401.
    await sandbox.control.emitEvent('user.updated', { user_id: randomUUID() });
    await settle();
    expect((await sandbox.control.deliveries()).at(-1)?.status).toBe(401);
    expect(t.handlers.log.count('user.updated')).toBe(0);
    // Back to the secret the app knows, at once (no window), for the tests after this one.
    await sandbox.control.rotateWebhookSecret(originalSecret, undefined, { overlapMs: 0 });
  });

  it('through a rotation (default behaviour, short window): an app with both secrets accepts every delivery; one with only the new secret refuses those of the window', async () => {
    const next = `whsec_next_${randomUUID()}`;
    const both = await startWebhookTestApp({
      secrets: [next, originalSecret],
      controllerPath: '/hooks/both',
    });
    const newOnly = await startWebhookTestApp({ secrets: [next], controllerPath: '/hooks/new-only' });
    const sent: { app: string; eventId: string }[] = [];
    const emitTo = async (app: WebhookTestApp, name: string) => {
      await sandbox.control.setWebhookUrl(app.url);
      const { eventId } = await sandbox.control.emitEvent('user.updated', { user_id: randomUUID() });
      sent.push({ app: name, eventId });
      await sandbox.control.flushWebhooks(); // delivered before the URL moves on
    };
    try {
      // A 3 s window instead of the partner's 60 s (evidence §9), so the test can wait it out; the
      // two deliveries inside it take well under that even on a loaded CI machine.
      const rotation = await sandbox.control.rotateWebhookSecret(next, undefined, { overlapMs: 3000 });
      await emitTo(both, 'both');
      await emitTo(newOnly, 'newOnly');
      const wait = Date.parse(rotation.previousSecretSignsUntil) - Date.now() + 50;
      await new Promise((r) => setTimeout(r, Math.max(wait, 0)));
      await emitTo(newOnly, 'newOnly');
      await emitTo(both, 'both');
      await both.service.processing.drain();
      await newOnly.service.processing.drain();
      const byId = new Map((await sandbox.control.deliveries()).map((d) => [d.eventId, d]));
      expect(
        sent.map(({ app, eventId }) => [
          app,
          byId.get(eventId)?.signedWithPreviousSecret,
          byId.get(eventId)?.status,
        ]),
      ).toEqual([
        ['both', true, 200],
        ['newOnly', true, 401], // lost at the partner: deliveries are never retried (spec 6.1.4)
        ['newOnly', false, 200],
        ['both', false, 200],
      ]);
      expect(both.handlers.log.count('user.updated')).toBe(2);
      expect(newOnly.handlers.log.count('user.updated')).toBe(1);
    } finally {
      await sandbox.control.setWebhookUrl(t.url);
      await sandbox.control.rotateWebhookSecret(originalSecret, undefined, { overlapMs: 0 });
      await both.close();
      await newOnly.close();
    }
  });

  it('acknowledges an unknown event type and surfaces it on the unknown stream (spec 6.1.5)', async () => {
    const { eventId } = await sandbox.control.sendUnknownEvent('sandbox.future_event');
    await settle();
    expect((await sandbox.control.deliveries()).at(-1)?.status).toBe(200);
    expect(t.handlers.log.calls).toEqual([
      {
        handler: PartnerDerivedEvent.Unknown,
        event: expect.objectContaining({ name: 'sandbox.future_event', eventId }),
      },
    ]);
  });
});
