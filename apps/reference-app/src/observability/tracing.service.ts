import { Inject, Injectable, Logger, type LoggerService, type OnApplicationShutdown } from '@nestjs/common';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { context, propagation, ProxyTracerProvider, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-node';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import type { ObservabilityConfig } from '../config/observability.config';
import { LogScopeContextManager } from './log-context.util';

/** What startTracing registered; `shutdown` flushes the spans still batched, then unregisters. */
export interface TracingHandle {
  readonly tracesUrl: string;
  shutdown(): Promise<void>;
}

/**
 * Enables OTLP/HTTP export when OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set: a
 * NodeTracerProvider with a batch processor, registered as the global provider with a context
 * manager over the log scope's AsyncLocalStorage (so the module's spans find their parents) and the W3C
 * propagators. Nothing when unset or OTEL_SDK_DISABLED=true: the module's spans stay no-ops.
 * A provider registered before (the host's own OpenTelemetry set-up, e.g. `--require` of an
 * auto-instrumentation) is left in place: the app's spans go to it, the variables are its business.
 */
export function startTracing(
  config: ObservabilityConfig['tracing'],
  logger: LoggerService,
): TracingHandle | null {
  if (!config) return null;
  // The API's global is a proxy; it has a delegate once any SDK registered (the host's, or ours).
  const current = trace.getTracerProvider();
  const registered =
    !(current instanceof ProxyTracerProvider) || current.getDelegateTracer('probe') !== undefined;
  if (registered) {
    logger.warn(
      'an OpenTelemetry tracer provider is already registered in this process: spans go to it, OTEL_EXPORTER_OTLP_* of the app are not used',
    );
    return null;
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: samplerFor(config.sampler),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers })),
    ],
  });
  // The log scope's storage carries the trace context too (LogScopeContextManager: one
  // AsyncLocalStorage, not two, for every promise on Node 20).
  provider.register({ contextManager: new LogScopeContextManager() });
  // Where to, never the headers (a vendor's key) nor credentials in the URL or its query.
  const shown = new URL(config.tracesUrl);
  if (shown.username || shown.password) shown.username = shown.password = '***';
  // Some vendors take their key in the query string (?api-key=...): never shown either.
  if (shown.search) shown.search = '***';
  shown.hash = '';
  logger.log(
    `tracing: OTLP/HTTP export to ${shown.href} as ${config.serviceName}, sampler ${config.sampler.name}${config.sampler.name.endsWith('traceidratio') ? ` ${config.sampler.ratio}` : ''}`,
  );
  return {
    tracesUrl: config.tracesUrl,
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}

/** OpenTelemetry's standard samplers by their OTEL_TRACES_SAMPLER names. */
function samplerFor({ name, ratio }: { name: string; ratio: number }): Sampler {
  const root: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio),
  };
  const bare = name.replace(/^parentbased_/, '');
  const sampler = (root[bare] ?? root.always_on)();
  // Parent-based: a trace the caller started keeps its decision; only roots are sampled here.
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root: sampler }) : sampler;
}

/**
 * The app's tracing for its lifetime: started with the module graph (before the port opens), shut
 * down last: webhook processing still running at shutdown is drained first, so its spans are flushed.
 */
@Injectable()
export class TracingLifecycle implements OnApplicationShutdown {
  private readonly handle: TracingHandle | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly webhooks: PartnerWebhookProcessingService,
  ) {
    this.handle = startTracing(config.observability.tracing, new Logger('Tracing'));
  }

  get enabled(): boolean {
    return this.handle !== null;
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.handle) return;
    await this.webhooks.drain();
    await this.handle.shutdown();
  }
}
