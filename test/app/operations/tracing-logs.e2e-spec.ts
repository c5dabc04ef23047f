/**
 * Traces and JSON logs of the reference app, on SQLite.
 * - Spans are collected with the SDK's in-memory exporter (registered here as the host's own
 *   provider would be): one payout webhook's trace goes from its receipt through the inbox and the
 *   handler to the projection write, in one trace. Twice: with the SDK's own context manager (a
 *   host's set-up) and with the app's LogScopeContextManager (what the app registers itself: the
 *   trace context in the log scope's AsyncLocalStorage).
 * - LOG_FORMAT=json at LOG_LEVEL=verbose: every line is one JSON object; the lines of a request
 *   carry its request_id (the caller's X-Request-Id when sent), those of a webhook's processing its
 *   event_id, those naming a payout its payout_id.
 * - No secret (api key, client id, password, bearer token, webhook secret, operator token, app api
 *   key) in any span (name, attributes, status, events, resource) nor in any line.
 */
import { randomUUID } from 'node:crypto';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { PartnerTokenManager } from '../../../libs/partner-payments/src/auth/token-manager.service';
import type { PartnerSandbox } from '@partner-payments/testing';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { LogScopeContextManager } from '../../../apps/reference-app/src/observability/log-context.util';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import {
  eventually,
  startTestApp,
  startTestSandbox,
  TEST_API_KEY,
  TEST_OPERATOR_TOKEN,
} from '../../setup/app.fixture';
import { createFundedAccount, postPayout, type FundedAccount } from '../../setup/funded-account.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';
import { captureProcessOutput } from '../../reliability/secrets-scan.fixture';

jest.setTimeout(120_000);

interface JsonLine {
  level: string;
  message: unknown;
  context?: string;
  request_id?: string;
  event_id?: string;
  payout_id?: string;
  trace_id?: string;
}

const CONTEXT_MANAGERS = [
  ["the SDK's context manager", () => undefined],
  ["the app's LogScopeContextManager", () => new LogScopeContextManager()],
] as const;

describe.each(CONTEXT_MANAGERS)('traces and JSON logs (SQLite), %s', (_name, contextManager) => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;
  let output: ReturnType<typeof captureProcessOutput>;

  beforeAll(async () => {
    provider.register({ contextManager: contextManager() });
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'tracing');
    cleanup = db.cleanup;
    output = captureProcessOutput();
    running = await startTestApp(db.url, { LOG_FORMAT: 'json', LOG_LEVEL: 'verbose' }, sandbox, {
      appLogger: true,
    });
    account = await createFundedAccount(running, 'tracing');
  });
  afterAll(async () => {
    output?.stop();
    await running?.close();
    await sandbox?.close();
    cleanup?.();
    trace.disable();
    context.disable();
    propagation.disable();
    await provider.shutdown();
  });

  const lines = (): JsonLine[] =>
    output
      .text()
      .split('\n')
      .filter((l) => l.startsWith('{"level"'))
      .map((l) => JSON.parse(l) as JsonLine);
  const text = (l: JsonLine) => (typeof l.message === 'string' ? l.message : JSON.stringify(l.message));

  it('follows one payout webhook from its receipt to the projection write, ids on every related line, no secret anywhere', async () => {
    const requestId = `req-${randomUUID()}`;
    const { payoutId, headers } = await postPayout(running, account, { 'X-Request-Id': requestId });
    expect(headers['x-request-id']).toBe(requestId);
    await sandbox.control.flushWebhooks();
    await running.app.get(PartnerWebhookProcessingService).drain();
    exporter.reset();

    // The partner moves the payout on and tells us: one delivery of payout.pending.
    await sandbox.control.advancePayout(payoutId, 'PENDING');
    await sandbox.control.flushWebhooks();
    await running.app.get(PartnerWebhookProcessingService).drain();
    const spans = await eventually(
      async () => {
        const all = exporter.getFinishedSpans();
        return all.some((s) => s.name === 'projection payouts') ? all : undefined;
      },
      5000,
      'the projection span',
    );
    // The write that moved the payout, and the trace it belongs to.
    const write = spans.find(
      (s) => s.name === 'projection payouts' && s.attributes['app.payout_id'] === payoutId,
    );
    const traceId = write!.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const parentOf = (s: ReadableSpan) =>
      inTrace.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);
    const chain = (s: ReadableSpan | undefined): ReadableSpan[] => (s ? [...chain(parentOf(s)), s] : []);
    // receipt -> processing -> the unified payout-status handler -> the projection's database write
    expect(chain(write).map((s) => s.name)).toEqual([
      'partner.webhook receive',
      'partner.webhook process',
      'partner.webhook handler',
      'projection payouts',
    ]);
    const receive = chain(write)[0];
    expect(receive.attributes['partner.webhook.outcome']).toBe('accepted');
    const eventId = String(receive.attributes['partner.event_id']);
    const delivery = (await sandbox.control.deliveries()).find((d) => d.eventId === eventId);
    expect(delivery?.body).toContain(payoutId);
    expect(write?.attributes['app.projection.outcome']).toBe('changed');
    // The app's store processes in batches: the processed marks are one statement per
    // batch inside its transaction, so there is no per-event 'partner.inbox mark_processed' span.
    expect(inTrace.map((s) => s.name)).toEqual(expect.arrayContaining(['partner.inbox record']));

    // JSON lines: the request's carry its id; the processing's its event id; the payout's its id.
    const all = lines();
    expect(all.length).toBeGreaterThan(20);
    const ofRequest = all.filter((l) => l.request_id === requestId);
    expect(ofRequest.some((l) => /POST \/v1\/virtual-accounts\/\S+\/payout → 20\d/.test(text(l)))).toBe(true);
    const processed = all.filter((l) => text(l).includes(`(${eventId}) processed`));
    expect(processed).toHaveLength(1);
    expect(processed[0]).toMatchObject({ event_id: eventId, trace_id: traceId });
    expect(processed[0].request_id).toMatch(/.+/); // the delivery's own request
    for (const l of all.filter((x) => text(x).includes(eventId))) expect(l.event_id).toBe(eventId);

    // No secret in any span or any line.
    const token = await running.app.get(PartnerTokenManager).getToken();
    const secrets = {
      'partner api key': sandbox.credentials.apiKey,
      'partner client id': sandbox.credentials.clientId,
      'partner password': sandbox.credentials.password,
      'bearer token': token,
      'webhook secret': sandbox.webhookSecret,
      'operator token': TEST_OPERATOR_TOKEN,
      'app api key': TEST_API_KEY,
    };
    const spanText = JSON.stringify(
      exporter
        .getFinishedSpans()
        .map((s) => [s.name, s.attributes, s.status, s.events, s.resource.attributes]),
    );
    const logText = output.text();
    const leaks = Object.entries(secrets).flatMap(([name, value]) => [
      ...(spanText.includes(value) ? [`${name} in a span`] : []),
      ...(logText.includes(value) ? [`${name} in the logs`] : []),
    ]);
    expect(leaks).toEqual([]);
  });
});
