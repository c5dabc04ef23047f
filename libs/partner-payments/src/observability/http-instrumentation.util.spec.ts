import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { PartnerAuthenticationError, PartnerServerError } from '../errors/partner-api.errors';
import {
  authOk,
  createTestClient,
  json,
  pathOf,
  startLocalServer,
  type LocalServer,
} from '../http/local-server.fixture';
import type { PartnerHttpEvent } from '../http/http.types';
import type { PartnerRateLimitWaitEvent, PartnerTokenEvent } from './hooks.util';
import { PartnerSpanAttribute as A } from './partner-tracing.util';

/**
 * The HTTP path's hooks and spans over a real local server. Spans are collected with the SDK's
 * in-memory exporter registered as the global provider: the library itself only uses the API.
 */
describe('HTTP observability: hooks and spans', () => {
  const exporter = new InMemorySpanExporter();
  // NodeTracerProvider.register() also installs the AsyncLocalStorage context manager the host
  // app's SDK would: without one, no span would know its parent.
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let server: LocalServer;
  beforeAll(() => {
    provider.register();
  });
  afterAll(async () => {
    trace.disable();
    context.disable();
    propagation.disable();
    await provider.shutdown();
  });
  beforeEach(async () => {
    exporter.reset();
    server = await startLocalServer();
  });
  afterEach(() => server.close());

  it('one client span per attempt with the route template, whether a key was sent, the resend count; no secret anywhere', async () => {
    let n = 0;
    const vaId = '0b9f3c1e-1111-4222-8333-444455556666';
    server.setHandler((req, res) => {
      if (pathOf(req) === '/auth') return authOk(res, 'tok-secret-9');
      return ++n === 1 ? json(res, 503, {}) : json(res, 200, { ok: true }, { 'x-request-id': 'req-7' });
    });
    const events: PartnerHttpEvent[] = [];
    const { http } = createTestClient(server.baseUrl, { onHttpEvent: (e) => events.push(e) });
    // A keyed write the partner de-duplicates (spec 4.7): the 503 is retried with the same key.
    await http.request({
      method: 'POST',
      path: `/v1/virtual-accounts/${vaId}/payout`,
      body: { amount: '1.00' },
    });

    const spans = exporter.getFinishedSpans();
    const route = '/v1/virtual-accounts/{virtual_account_id}/payout';
    // One CLIENT span per attempt; the retry is told apart by its resend count, with the same key.
    const attempts = spans.filter((s) => s.name === `POST ${route}`);
    expect(attempts.map((s) => s.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(attempts.map((s) => [s.attributes[A.ResendCount], s.attributes[A.HttpStatus]])).toEqual([
      [0, 503],
      [1, 200],
    ]);
    expect(attempts[1].attributes).toMatchObject({
      [A.HttpMethod]: 'POST',
      [A.UrlTemplate]: route,
      [A.Attempt]: 2,
      [A.IdempotencyKeyPresent]: true,
      [A.RequestId]: 'req-7',
    });
    expect(attempts[0].attributes[A.ErrorType]).toBe('503');
    // The token refresh: 'partner.auth' over its own attempt.
    const auth = spans.find((s) => s.name === 'partner.auth');
    expect(auth?.attributes[A.AuthOutcome]).toBe('refreshed');
    const authAttempt = spans.find((s) => s.name === 'POST /auth');
    expect(authAttempt?.parentSpanContext?.spanId).toBe(auth?.spanContext().spanId);
    // The hook's events carry the template too, so metrics need no path parsing.
    expect(new Set(events.map((e) => e.route))).toEqual(new Set(['/auth', route]));

    const text = JSON.stringify(spans.map((s) => [s.name, s.attributes, s.status, s.events]));
    for (const secret of ['key-secret-1', 'pw-secret-1', 'tok-secret-9', vaId, '1.00'])
      expect(text).not.toContain(secret);
  });

  it('makes none of its spans active on a call or its token refresh: parents are handed explicitly', async () => {
    // Activating a span is an AsyncLocalStorage run per attempt, and on Node 20 the first such run
    // turns on promise hooks for the whole process, a cost every later call would pay.
    server.setHandler((req, res) => (pathOf(req) === '/auth' ? authOk(res) : json(res, 200, {})));
    const { http } = createTestClient(server.baseUrl);
    const made = jest.spyOn(context, 'with');
    try {
      await http.request({ method: 'GET', path: '/v1/users' });
      // The SDK's span processor runs its exports in a context of its own (tracing suppressed):
      // only a context holding one of the module's spans would be the module's doing.
      const withSpan = made.mock.calls.filter(([ctx]) => trace.getSpan(ctx) !== undefined);
      expect(withSpan).toEqual([]);
    } finally {
      made.mockRestore();
    }
    const spans = exporter.getFinishedSpans();
    const auth = spans.find((s) => s.name === 'partner.auth');
    const authAttempt = spans.find((s) => s.name === 'POST /auth');
    expect(authAttempt?.parentSpanContext?.spanId).toBe(auth?.spanContext().spanId);
    expect(authAttempt?.spanContext().traceId).toBe(auth?.spanContext().traceId);
    expect(spans.find((s) => s.name === 'GET /v1/users')?.kind).toBe(SpanKind.CLIENT);
  });

  it('an attempt is a child of the span active where the call is made', async () => {
    server.setHandler((req, res) => (pathOf(req) === '/auth' ? authOk(res) : json(res, 200, {})));
    const { http } = createTestClient(server.baseUrl);
    const caller = trace.getTracer('host').startSpan('host.operation');
    await context.with(trace.setSpan(context.active(), caller), () =>
      http.request({ method: 'GET', path: '/v1/users' }),
    );
    caller.end();
    const attempt = exporter.getFinishedSpans().find((s) => s.name === 'GET /v1/users');
    expect(attempt?.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
  });

  it('a failed attempt is marked with its status as the error type, never the message', async () => {
    server.setHandler((req, res) =>
      pathOf(req) === '/auth' ? authOk(res) : json(res, 500, { message: 'account 12345678 broke' }),
    );
    const { http } = createTestClient(server.baseUrl, { maxRetries: 0 });
    await expect(http.request({ method: 'GET', path: '/v1/users' })).rejects.toBeInstanceOf(
      PartnerServerError,
    );
    const span = exporter.getFinishedSpans().find((s) => s.name === 'GET /v1/users');
    expect(span?.status.code).toBe(2);
    expect(span?.attributes).toMatchObject({ [A.HttpStatus]: 500, [A.IdempotencyKeyPresent]: false });
    expect(JSON.stringify([span?.status, span?.attributes, span?.events])).not.toContain('12345678');
  });

  it('onTokenEvent: refreshed with a duration, failed with the reason', async () => {
    const seen: PartnerTokenEvent[] = [];
    server.setHandler((_req, res) => authOk(res));
    const ok = createTestClient(server.baseUrl, { onTokenEvent: (e) => seen.push(e) });
    await ok.tokens.getToken();
    server.setHandler((_req, res) => json(res, 401, { message: 'bad credentials' }));
    const refused = createTestClient(server.baseUrl, { onTokenEvent: (e) => seen.push(e) });
    await expect(refused.tokens.getToken()).rejects.toBeInstanceOf(PartnerAuthenticationError);
    server.setHandler((_req, res) => json(res, 503, {}));
    const down = createTestClient(server.baseUrl, { maxRetries: 1, onTokenEvent: (e) => seen.push(e) });
    await expect(down.tokens.getToken()).rejects.toBeInstanceOf(PartnerServerError);
    expect(seen.map((e) => [e.type, e.reason, e.status])).toEqual([
      ['refreshed', undefined, undefined],
      ['failed', 'refused', 401],
      ['failed', 'unavailable', 503],
    ]);
    expect(seen.every((e) => typeof e.durationMs === 'number')).toBe(true);
  });

  it('onRateLimitWait reports the calls that waited for the limiter, with their route', async () => {
    server.setHandler((req, res) => (pathOf(req) === '/auth' ? authOk(res) : json(res, 200, {})));
    const waits: PartnerRateLimitWaitEvent[] = [];
    const { http, tokens } = createTestClient(server.baseUrl, {
      // 5/s: a token takes 200 ms to come back, so an event-loop stall on a loaded machine (tens of
      // ms) cannot refill the bucket between the three calls and spare the one that must wait.
      rateLimit: { requestsPerSecond: 5, burst: 2 },
      onRateLimitWait: (e) => waits.push(e),
    });
    await tokens.getToken(); // spends one token of the burst
    await Promise.all([1, 2, 3].map(() => http.request({ method: 'GET', path: '/v1/payouts/p-1' })));
    // burst 2 at 5/s: /auth spent one token, so of three calls at once at least one waits for a
    // token (200 ms each); how many depends on how long /auth took (the bucket refills meanwhile),
    // and a call that went at once can report a rounded 1 ms on a loaded machine. So: at least one
    // wait of a token's length, every reported wait named by its route, and one span per wait.
    const payoutWaits = waits.filter((w) => w.method === 'GET' && w.route === '/v1/payouts/{payout_id}');
    expect(payoutWaits.some((w) => w.waitMs >= 10)).toBe(true);
    expect(waits.every((w) => w.waitMs >= 1)).toBe(true);
    // Every wait is reported with its attempt's route and is on that attempt's span, one each. (A
    // loaded full run once reported 4 waits for the 3 calls: an attempt more than planned, a
    // retry or a token refresh; counting attempts, not calls, keeps the check exact.)
    const waitedSpans = exporter
      .getFinishedSpans()
      .filter((s) => s.attributes[A.RateLimitWaitMs] !== undefined)
      .map((s) => s.name);
    expect(waitedSpans.sort()).toEqual(waits.map((w) => `${w.method} ${w.route}`).sort());
  });

  it('a throwing hook never fails the call', async () => {
    server.setHandler((req, res) => (pathOf(req) === '/auth' ? authOk(res) : json(res, 200, {})));
    const boom = (): void => {
      throw new Error('listener bug');
    };
    const { http } = createTestClient(server.baseUrl, {
      onTokenEvent: boom,
      onRateLimitWait: boom,
      rateLimit: { requestsPerSecond: 100, burst: 1 },
    });
    await expect(http.request({ method: 'GET', path: '/v1/users' })).resolves.toBeDefined();
  });
});
