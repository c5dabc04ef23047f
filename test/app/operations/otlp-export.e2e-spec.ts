/**
 * With the standard OTEL_EXPORTER_OTLP_* variables set, the app exports its spans over
 * OTLP/HTTP: here to a collector stand-in on a real socket that records what it receives. The
 * module's spans arrive with the service name and the headers of OTEL_EXPORTER_OTLP_HEADERS (a
 * vendor key, never logged); what is batched is flushed when the app closes, and the global
 * provider is released. OTEL_SDK_DISABLED=true exports nothing.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, ProxyTracerProvider, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { PartnerTokenManager } from '../../../libs/partner-payments/src/auth/token-manager.service';
import type { PartnerSandbox } from '@partner-payments/testing';
import { appRequest, CapturingLogger, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(90_000);

const VENDOR_KEY = 'vendor-key-5d1f0c7b2e';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('OTLP/HTTP export of traces', () => {
  let sandbox: PartnerSandbox;
  let collector: Server;
  let endpoint: string;
  const received: Received[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await sandbox?.close();
    await new Promise((resolve) => collector?.close(resolve));
  });
  beforeEach(() => (received.length = 0));

  const runOnce = async (env: Record<string, string>, logger = new CapturingLogger()) => {
    const { url, cleanup } = await databaseUrlFor('sqlite', 'otlp');
    const running = await startTestApp(url, env, sandbox, { logger });
    try {
      await appRequest(running).post('/reconciliation/run').expect(200);
      await appRequest(running).get('/versioning').expect(200);
      // A partner call of its own: the token is refreshed in a span of the module.
      await running.app.get(PartnerTokenManager).refresh();
    } finally {
      await running.close();
      cleanup();
    }
    return logger;
  };

  it('exports the module spans to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces with the configured headers', async () => {
    const logger = await runOnce({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_SERVICE_NAME: 'payments-on-call-test',
      OTEL_EXPORTER_OTLP_HEADERS: `x-vendor-key=${VENDOR_KEY}`,
    });
    expect(received.length).toBeGreaterThanOrEqual(1);
    expect(received.every((r) => r.path === '/v1/traces')).toBe(true);
    expect(received[0].headers['x-vendor-key']).toBe(VENDOR_KEY);
    const all = received.map((r) => r.body).join('\n');
    expect(all).toContain('payments-on-call-test');
    expect(all).toContain('partner.auth');
    expect(all).toContain('POST /auth');
    for (const secret of [sandbox.credentials.apiKey, sandbox.credentials.password, sandbox.webhookSecret])
      expect(all).not.toContain(secret);
    // Where it exports is said once; the vendor key never is.
    expect(
      logger.lines.filter((l) => l.includes(`tracing: OTLP/HTTP export to ${endpoint}/v1/traces`)),
    ).toHaveLength(1);
    expect(logger.lines.join('\n')).not.toContain(VENDOR_KEY);
    // Closed: the global provider is free again for the next app of this process.
    const free = trace.getTracerProvider() as ProxyTracerProvider;
    expect(free.getDelegateTracer('probe')).toBeUndefined();
  });

  it('never logs a key carried in the endpoint URL (userinfo or query string)', async () => {
    const withKey = new URL(`${endpoint}/v1/traces?api-key=${VENDOR_KEY}`);
    withKey.username = 'user';
    withKey.password = `pw-${VENDOR_KEY}`;
    const logger = await runOnce({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: withKey.href });
    expect(received.length).toBeGreaterThanOrEqual(1);
    const said = logger.lines.filter((l) => l.includes('tracing: OTLP/HTTP export to'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('/v1/traces?***');
    expect(logger.lines.join('\n')).not.toContain(VENDOR_KEY);
  });

  it("leaves a provider registered before (the host's own set-up) in place: its spans go there", async () => {
    const exporter = new InMemorySpanExporter();
    const hosts = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    hosts.register();
    try {
      const logger = await runOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
      expect(received).toEqual([]);
      expect(exporter.getFinishedSpans().map((s) => s.name)).toContain('partner.auth');
      expect(logger.lines.some((l) => l.includes('already registered in this process'))).toBe(true);
    } finally {
      trace.disable();
      context.disable();
      propagation.disable();
      await hosts.shutdown();
    }
  });

  it('OTEL_SDK_DISABLED=true exports nothing', async () => {
    await runOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' });
    expect(received).toEqual([]);
  });
});
