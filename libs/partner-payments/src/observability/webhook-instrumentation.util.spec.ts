import type { LoggerService } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { PartnerInMemoryInboxStore } from '../webhooks/inbox/inbox-memory.store';
import { PartnerEvent } from '../webhooks/events/partner-event.constants';
import { computePartnerSignature } from '../webhooks/signature.util';
import type { PartnerWebhookObservation } from './hooks.util';
import { PartnerSpanAttribute as A } from './partner-tracing.util';
import { currentPartnerLogContext, type PartnerLogContext } from './webhook-instrumentation.util';
import { webhookServices } from '../webhooks/webhook-services.fixture';

const SECRET = 'whsec_observed_1234';
const silent: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** The webhook path's hook, spans and log context, on the service with the in-memory inbox. */
describe('webhook observability', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => provider.register());
  afterAll(async () => {
    trace.disable();
    context.disable();
    propagation.disable();
    await provider.shutdown();
  });
  beforeEach(() => exporter.reset());

  async function setup() {
    const seen: PartnerWebhookObservation[] = [];
    const emitter = new EventEmitter2();
    const service = await webhookServices({
      logger: silent,
      secrets: [SECRET],
      maxBodyBytes: 200,
      onWebhookEvent: (e) => seen.push(e),
      inboxStore: new PartnerInMemoryInboxStore({ retryDelaysMs: [0] }),
      emitter,
    });
    return { service, emitter, seen };
  }
  const body = (event: string, eventId: string) =>
    Buffer.from(JSON.stringify({ event, data: { event_id: eventId, user_id: 'u1' } }));
  const signed = (raw: Buffer, secret = SECRET) => ({
    'x-signature-sha256': computePartnerSignature(raw, secret),
  });

  it('reports each answer: accepted, duplicate, unknown, and refusals by reason', async () => {
    const { service, seen } = await setup();
    const created = body(PartnerEvent.UserCreated, 'evt-1');
    await service.ingest.handle(created, signed(created));
    await service.ingest.handle(created, signed(created));
    const future = body('user.teleported', 'evt-2');
    await service.ingest.handle(future, signed(future));
    await service.ingest.handle(created, signed(created, 'whsec_not_ours_at_all')).catch(() => undefined);
    await service.ingest.handle(created, {}).catch(() => undefined);
    const notJson = Buffer.from('not json');
    await service.ingest.handle(notJson, signed(notJson)).catch(() => undefined);
    const big = Buffer.alloc(201, 'x');
    await service.ingest.handle(big, signed(big)).catch(() => undefined);
    await service.processing.drain();
    const received = seen.filter((e) => e.type === 'received');
    expect(received.map((e) => [e.outcome, e.outcome === 'refused' ? e.reason : e.eventId])).toEqual([
      ['accepted', 'evt-1'],
      ['duplicate', 'evt-1'],
      ['unknown', 'evt-2'],
      ['refused', 'mismatch'],
      ['refused', 'missing_header'],
      ['refused', 'invalid_payload'],
      ['refused', 'payload_too_large'],
    ]);
    expect(JSON.stringify(seen)).not.toContain(SECRET);
  });

  it('one trace from receipt through the inbox to each handler; a handler failure is reported', async () => {
    const { service, emitter, seen } = await setup();
    const contexts: Array<PartnerLogContext | undefined> = [];
    emitter.on(PartnerEvent.UserCreated, async () => {
      contexts.push(currentPartnerLogContext());
      throw new Error('projection down');
    });
    const raw = body(PartnerEvent.UserCreated, 'evt-9');
    const result = await service.ingest.handle(raw, signed(raw));
    await result.processing;
    const spans = exporter.getFinishedSpans();
    const byName = (n: string) => spans.filter((s) => s.name === n);
    const [receive] = byName('partner.webhook receive');
    const [process] = byName('partner.webhook process');
    expect(receive.attributes).toMatchObject({ [A.EventId]: 'evt-9', [A.WebhookOutcome]: 'accepted' });
    expect(process.attributes).toMatchObject({
      [A.EventId]: 'evt-9',
      [A.WebhookOutcome]: 'failed',
      [A.WebhookRedelivery]: false,
    });
    const id = (s: (typeof spans)[number]) => s.spanContext().spanId;
    expect(byName('partner.inbox record')[0].parentSpanContext?.spanId).toBe(id(receive));
    expect(process.parentSpanContext?.spanId).toBe(id(receive));
    const [handler] = byName('partner.webhook handler');
    expect(handler.parentSpanContext?.spanId).toBe(id(process));
    expect(handler.status.code).toBe(2);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    // The handler ran inside the event's log context.
    expect(contexts).toEqual([{ eventId: 'evt-9', eventName: PartnerEvent.UserCreated }]);
    expect(seen.find((e) => e.type === 'processed')).toMatchObject({
      outcome: 'failed',
      eventId: 'evt-9',
      redelivery: false,
    });

    // The retry from the inbox: its own trace, marked as a redelivery.
    exporter.reset();
    emitter.removeAllListeners();
    emitter.on(PartnerEvent.UserCreated, async () => undefined);
    await service.processing.processPending({ minAgeMs: 0 });
    const retry = exporter.getFinishedSpans().find((s) => s.name === 'partner.webhook process');
    expect(retry?.attributes).toMatchObject({
      [A.WebhookOutcome]: 'processed',
      [A.WebhookRedelivery]: true,
    });
    expect(seen.filter((e) => e.type === 'processed').map((e) => e.outcome)).toEqual(['failed', 'processed']);
    expect(currentPartnerLogContext()).toBeUndefined();
  });
});
