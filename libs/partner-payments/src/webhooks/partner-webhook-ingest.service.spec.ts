import type { LoggerService } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PartnerInMemoryInboxStore } from './inbox/inbox-memory.store';
import type { PartnerInboxStore } from './inbox/inbox.store';
import { PartnerDerivedEvent, PartnerEvent } from './events/partner-event.constants';
import type { PartnerPayoutStatusEvent, PartnerWebhookEvent } from './events/partner-event.types';
import { computePartnerSignature } from './signature.util';
import {
  PartnerWebhookBodyTooLargeError,
  PartnerWebhookConfigurationError,
  PartnerWebhookInboxError,
  PartnerWebhookPayloadError,
  PartnerWebhookSignatureError,
} from './webhook.errors';
import { webhookServices } from './webhook-services.fixture';

const SECRET = 'whsec_unit';
const silent: LoggerService = { log: jest.fn(), warn: jest.fn(), error: jest.fn() };

async function setup(
  options: {
    inbox?: PartnerInboxStore;
    emitter?: EventEmitter2 | null;
    maxBodyBytes?: number;
    secrets?: string[];
    logger?: LoggerService;
  } = {},
) {
  const inbox = options.inbox ?? new PartnerInMemoryInboxStore({ retryDelaysMs: [0] });
  const service = await webhookServices({
    logger: options.logger ?? silent,
    secrets: options.secrets ?? [SECRET],
    maxBodyBytes: options.maxBodyBytes,
    inboxStore: inbox,
    emitter: options.emitter,
  });
  const emitter = service.emitter;
  const seen: Array<{ name: string; event: unknown }> = [];
  emitter?.onAny((name, event) => {
    seen.push({ name: String(name), event });
  });
  return { service, inbox, emitter, seen };
}

const body = (event: string, data: Record<string, unknown>) => Buffer.from(JSON.stringify({ event, data }));
const signed = (raw: Buffer, secret = SECRET) => ({
  'x-signature-sha256': computePartnerSignature(raw, secret),
});
const completed = body('payout.completed', {
  event_id: 'evt_c',
  payout_id: 'p1',
  status: 'completed',
  reference_number: 'R',
});

describe('PartnerWebhookIngestService.handle', () => {
  it('records, acknowledges, then emits the typed event and the unified payout status once', async () => {
    const { service, inbox, emitter } = await setup();
    const got: Array<PartnerWebhookEvent<string, unknown> | PartnerPayoutStatusEvent> = [];
    emitter!.on(
      PartnerEvent.PayoutCompleted,
      async (e: PartnerWebhookEvent<string, unknown>) => void got.push(e),
    );
    emitter!.on(PartnerDerivedEvent.PayoutStatus, async (e: PartnerPayoutStatusEvent) => void got.push(e));

    const result = await service.ingest.handle(completed, signed(completed));
    expect(result).toMatchObject({ status: 'accepted', eventId: 'evt_c', name: 'payout.completed' });
    // persist, ack, process: the handlers have not run when handle() resolves
    expect(got).toHaveLength(0);
    expect((inbox as PartnerInMemoryInboxStore).get('evt_c')?.state).toBe('pending');

    await expect(result.processing).resolves.toMatchObject({ outcome: 'processed' });
    expect(got).toHaveLength(2);
    expect(got[0]).toMatchObject({
      name: 'payout.completed',
      status: 'COMPLETED',
      payload: { reference_number: 'R' },
    });
    expect(got[1]).toMatchObject({
      payoutId: 'p1',
      status: 'COMPLETED',
      eventName: 'payout.completed',
      eventId: 'evt_c',
    });
    expect((inbox as PartnerInMemoryInboxStore).get('evt_c')?.state).toBe('processed');
  });

  it('processes before resolving with waitForProcessing', async () => {
    const { service, seen } = await setup();
    await service.ingest.handle(completed, signed(completed), { waitForProcessing: true });
    expect(seen.map((s) => s.name)).toEqual(['payout.completed', PartnerDerivedEvent.PayoutStatus]);
  });

  it('emits a duplicate delivery once, also when deliveries race (spec 6.1.4)', async () => {
    const { service, seen } = await setup();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => service.ingest.handle(completed, signed(completed))),
    );
    await service.processing.drain();
    expect(results.filter((r) => r.status === 'accepted')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(9);
    expect(results.find((r) => r.status === 'duplicate')?.processing).toBeNull();
    expect(seen.filter((s) => s.name === 'payout.completed')).toHaveLength(1);
    await service.ingest.handle(completed, signed(completed));
    await service.processing.drain();
    expect(seen.filter((s) => s.name === 'payout.completed')).toHaveLength(1);
  });

  it('announces the unified status of each family when payout.completed and payout.status_changed race (spec 6.4.7)', async () => {
    const { service, seen } = await setup();
    const v2 = body('payout.status_changed', {
      event_id: 'evt_v2',
      event_type: 'payout.status_changed',
      created_at: '2026-04-14T10:00:00Z',
      data: { payout_id: 'p1', status: 'COMPLETED', previous_status: 'PROCESSING', amount: '1' },
    });
    await Promise.all([
      service.ingest.handle(v2, signed(v2)),
      service.ingest.handle(completed, signed(completed)),
    ]);
    await service.processing.drain();
    expect(seen.filter((s) => s.name === 'payout.completed')).toHaveLength(1);
    expect(seen.filter((s) => s.name === 'payout.status_changed')).toHaveLength(1);
    // One per delivery, nothing remembered between them: the projection's own rule makes the twin a no-op.
    expect(seen.filter((s) => s.name === PartnerDerivedEvent.PayoutStatus)).toHaveLength(2);
  });

  it('acknowledges unknown event types, records them and emits them on the unknown stream (spec 6.1.5)', async () => {
    const { service, seen, inbox } = await setup();
    const raw = body('user.document.download.failed', { event_id: 'evt_rfi', rfi_id: 'r1' });
    const result = await service.ingest.handle(raw, signed(raw), { waitForProcessing: true });
    expect(result.status).toBe('unknown');
    expect(seen).toEqual([
      {
        name: PartnerDerivedEvent.Unknown,
        event: expect.objectContaining({ name: 'user.document.download.failed' }),
      },
    ]);
    expect((inbox as PartnerInMemoryInboxStore).get('evt_rfi')?.state).toBe('processed');
  });

  it('marks the entry failed when a handler throws, still acknowledges, and retries it later', async () => {
    const { service, emitter, inbox } = await setup();
    let calls = 0;
    emitter!.on(PartnerEvent.PayoutCompleted, async () => {
      calls += 1;
      if (calls === 1) throw new Error('db down');
    });
    const result = await service.ingest.handle(completed, signed(completed));
    expect(result.status).toBe('accepted');
    await expect(result.processing).resolves.toEqual({
      outcome: 'failed',
      eventId: 'evt_c',
      error: 'db down',
      retryAt: expect.any(Date),
    });
    expect((inbox as PartnerInMemoryInboxStore).get('evt_c')).toMatchObject({
      state: 'failed',
      lastError: 'db down',
    });

    await new Promise((r) => setTimeout(r, 5));
    expect(await service.processing.processPending()).toMatchObject({ processed: 1, failed: 0, skipped: 0 });
    expect(calls).toBe(2);
    expect((inbox as PartnerInMemoryInboxStore).get('evt_c')?.state).toBe('processed');
    expect(await service.processing.processPending()).toMatchObject({ processed: 0, failed: 0, skipped: 0 });
  });

  it('re-announces the unified status on retry when its own handler failed', async () => {
    const { service, emitter } = await setup();
    let statusCalls = 0;
    emitter!.on(PartnerDerivedEvent.PayoutStatus, async () => {
      statusCalls += 1;
      if (statusCalls === 1) throw new Error('projection busy');
    });
    const first = await service.ingest.handle(completed, signed(completed));
    await expect(first.processing).resolves.toMatchObject({ outcome: 'failed' });
    await new Promise((r) => setTimeout(r, 5));
    await service.processing.processPending();
    expect(statusCalls).toBe(2);
  });

  it('de-duplicates a delivery without data.event_id (a root event_id is not used) on a body hash, and warns', async () => {
    const warnings: string[] = [];
    const logger: LoggerService = {
      log: () => undefined,
      warn: (m: unknown) => void warnings.push(String(m)),
      error: () => undefined,
    };
    const { service, seen } = await setup({ logger });
    const legacy = Buffer.from(
      JSON.stringify({ event: 'user.updated', event_id: 'root_1', data: { user_id: 'u1' } }),
    );
    const first = await service.ingest.handle(legacy, signed(legacy));
    expect(first.status).toBe('accepted');
    expect(first.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(warnings).toEqual([expect.stringContaining('user.updated has no data.event_id')]);
    await expect(service.ingest.handle(legacy, signed(legacy))).resolves.toMatchObject({
      status: 'duplicate',
      eventId: first.eventId,
    });
    await service.processing.drain();
    expect(seen.map((e) => e.name)).toEqual(['user.updated']);
  });

  describe('refusals', () => {
    it('401 with the reason for a bad signature; nothing recorded', async () => {
      const { service, inbox, seen } = await setup();
      const attempt = service.ingest.handle(completed, signed(completed, 'WHSEC_UNIT'));
      await expect(attempt).rejects.toBeInstanceOf(PartnerWebhookSignatureError);
      await expect(service.ingest.handle(completed, { 'X-Signature-SHA256': 'xyz' })).rejects.toMatchObject({
        status: 401,
        reason: 'not_hex',
      });
      await expect(service.ingest.handle(completed, {})).rejects.toMatchObject({ reason: 'missing_header' });
      expect((inbox as PartnerInMemoryInboxStore).size).toBe(0);
      expect(seen).toHaveLength(0);
    });

    it('400 for a validly signed body that is not JSON or has no event; not recorded, not emitted', async () => {
      const { service, inbox, seen } = await setup();
      for (const raw of [Buffer.from('not json'), Buffer.from('{"data":{"event_id":"x"}}')]) {
        const error = await service.ingest.handle(raw, signed(raw)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PartnerWebhookPayloadError);
        expect((error as PartnerWebhookPayloadError).toHttpException().getStatus()).toBe(400);
      }
      expect((inbox as PartnerInMemoryInboxStore).size).toBe(0);
      expect(seen).toHaveLength(0);
    });

    it('400 for a signed body that is not valid UTF-8, after the signature check; not recorded', async () => {
      const { service, inbox, seen } = await setup();
      // Two different ids that a lossy decoding (U+FFFD) would merge into one.
      const bodies = [0xff, 0xfe].map((b) =>
        Buffer.concat([
          Buffer.from('{"event":"user.updated","data":{"event_id":"e_'),
          Buffer.from([b]),
          Buffer.from('","user_id":"u1"}}'),
        ]),
      );
      for (const raw of bodies) {
        await expect(
          service.ingest.handle(raw, { 'x-signature-sha256': 'ab'.repeat(32) }),
        ).rejects.toBeInstanceOf(PartnerWebhookSignatureError);
        const error = await service.ingest.handle(raw, signed(raw)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PartnerWebhookPayloadError);
        expect((error as PartnerWebhookPayloadError).toResponseBody()).toMatchObject({
          statusCode: 400,
          code: 'invalid_payload',
          message: expect.stringContaining('not valid UTF-8'),
        });
      }
      expect((inbox as PartnerInMemoryInboxStore).size).toBe(0);
      expect(seen).toHaveLength(0);
    });

    it('keeps the exact bytes of a valid body, a leading BOM and U+0000 escapes included', async () => {
      const { service, inbox } = await setup();
      const raw = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          '{"event":"user.updated","data":{"event_id":"e_\\u0000 \u00e9\u{1f600}","user_id":"u1"}}',
        ),
      ]);
      const result = await service.ingest.handle(raw, signed(raw));
      expect(result.eventId).toBe('e_\u0000 \u00e9\u{1f600}');
      const entry = (inbox as PartnerInMemoryInboxStore).get(result.eventId);
      expect(Buffer.from(entry!.rawBody, 'utf8').equals(raw)).toBe(true);
    });

    it('413 beyond maxBodyBytes, before verifying', async () => {
      const { service } = await setup({ maxBodyBytes: 16 });
      await expect(service.ingest.handle(completed, signed(completed))).rejects.toBeInstanceOf(
        PartnerWebhookBodyTooLargeError,
      );
    });

    it('500, not a 2xx, when the inbox cannot record the event (spec 6.1.4: never ack what was not kept)', async () => {
      const logs: string[] = [];
      const logger: LoggerService = {
        log: () => undefined,
        warn: (m: unknown) => void logs.push(String(m)),
        error: (m: unknown) => void logs.push(String(m)),
      };
      const inbox = new PartnerInMemoryInboxStore();
      jest.spyOn(inbox, 'record').mockRejectedValueOnce(new Error('connection refused'));
      const { service, seen } = await setup({ inbox, logger });
      const error = await service.ingest.handle(completed, signed(completed)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PartnerWebhookInboxError);
      expect((error as PartnerWebhookInboxError).toHttpException().getStatus()).toBe(500);
      expect((error as PartnerWebhookInboxError).toResponseBody()).toMatchObject({
        code: 'inbox_unavailable',
        eventId: 'evt_c',
      });
      await service.processing.drain();
      expect(seen).toHaveLength(0); // nothing emitted for an event that was not kept
      expect(logs).toEqual([expect.stringMatching(/payout\.completed \(evt_c\).*connection refused/)]);
      expect(logs.join('\n')).not.toContain('reference_number'); // names the event, never logs the body
      // the same delivery, once the store is back, is new (the failed record kept nothing)
      await expect(service.ingest.handle(completed, signed(completed))).resolves.toMatchObject({
        status: 'accepted',
      });
    });

    it('never logs the secret or the whole signature header', async () => {
      const logs: string[] = [];
      const logger: LoggerService = {
        log: (m: unknown) => void logs.push(String(m)),
        warn: (m: unknown) => void logs.push(String(m)),
        error: (m: unknown) => void logs.push(String(m)),
      };
      const secret = 'whsec_Very-Secret-Value';
      const { service } = await setup({ logger, secrets: [secret] });
      const wrong = computePartnerSignature(completed, 'whsec_other');
      const almost = computePartnerSignature(completed, secret).slice(0, 62);
      await expect(service.ingest.handle(completed, { 'x-signature-sha256': wrong })).rejects.toMatchObject({
        reason: 'mismatch',
      });
      await expect(service.ingest.handle(completed, { 'x-signature-sha256': almost })).rejects.toMatchObject({
        reason: 'wrong_length',
      });
      await service.ingest.handle(completed, signed(completed, secret));
      await service.processing.drain();
      expect(logs.length).toBeGreaterThanOrEqual(2);
      const text = logs.join('\n');
      expect(text).not.toContain(secret);
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(almost);
      expect(text).not.toContain(computePartnerSignature(completed, secret));
    });

    it('500 explaining rawBody: true when no raw bytes are given (never re-serialised JSON)', async () => {
      const { service } = await setup();
      const parsed = JSON.parse(completed.toString()) as unknown as Buffer;
      const error = await service.ingest.handle(parsed, signed(completed)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PartnerWebhookConfigurationError);
      expect((error as Error).message).toContain('NestFactory.create(AppModule, { rawBody: true })');
      expect((error as PartnerWebhookConfigurationError).toHttpException().getStatus()).toBe(500);
      await expect(service.ingest.handle(undefined, signed(completed))).rejects.toBeInstanceOf(
        PartnerWebhookConfigurationError,
      );
    });
  });
});
