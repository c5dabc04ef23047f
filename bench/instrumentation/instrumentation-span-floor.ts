/**
 * The floor under "every trace exported" (bench/instrumentation.bench.ts): the OpenTelemetry
 * SDK's own CPU per exported span, measured alone in this process: start (sampled), the attempt
 * span's seven attributes, end, the batch processor, OTLP/JSON serialisation of every batch. No
 * network (the export's HTTP request would only add), no module code, no context manager. Times
 * the spans per operation the module and the app make (client: 1 per call; webhook: receive,
 * inbox record, process, handler, projection = 5 per delivery), it is the least "on" can cost.
 * Usage: npx ts-node --transpile-only bench/instrumentation/instrumentation-span-floor.ts
 * The last stdout line is { cpuUsPerSpan: { min, median } } over 7 rounds of 20,000 spans.
 */
// The serialiser OTLPTraceExporter (exporter-trace-otlp-http, a dependency) uses; a dependency of it.
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { median } from './instrumentation-rounds.fixture';

const serialising: SpanExporter = {
  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    JsonTraceSerializer.serializeRequest(spans);
    done({ code: 0 }); // ExportResultCode.SUCCESS
  },
  shutdown: async () => undefined,
};
const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(serialising)] });
const tracer = provider.getTracer('floor');

async function round(spans: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < spans; i++) {
    const span = tracer.startSpan('GET /v1/payouts/{payout_id}', { kind: 2 });
    span.setAttributes({
      'http.request.method': 'GET',
      'url.template': '/v1/payouts/{payout_id}',
      'http.request.resend_count': 0,
      'partner.attempt': 1,
      'partner.idempotency_key.present': false,
    });
    span.setAttribute('http.response.status_code', 200);
    span.setAttribute('partner.request_id', 'req-1');
    span.end();
    // Let the batch processor's exports run as they would between calls.
    if (i % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await provider.forceFlush();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / spans;
}

async function main(): Promise<void> {
  await round(20_000); // warm-up
  const rounds: number[] = [];
  for (let k = 0; k < 7; k++) rounds.push(await round(20_000));
  const min = Math.min(...rounds);
  const mid = median(rounds);
  process.stderr.write(`SDK CPU per exported span: min ${min.toFixed(2)} µs, median ${mid.toFixed(2)} µs\n`);
  process.stdout.write(
    `${JSON.stringify({ cpuUsPerSpan: { min: Math.round(min * 100) / 100, median: Math.round(mid * 100) / 100 } })}\n`,
  );
  await provider.shutdown();
}

void main();
