import type { ObservabilityVariables } from './observability.rules';

/** Logs, readiness and tracing settings, with every default applied. */
export interface ObservabilityConfig {
  logFormat: 'text' | 'json';
  readiness: {
    /** 0: the inbox is not part of readiness. */
    inboxMaxLagMs: number;
    /** false: partner token unobtainable is `degraded` (200) instead of down (503). */
    partnerRequired: boolean;
  };
  /** null: no exporter (the OpenTelemetry API stays a no-op unless the host registers an SDK). */
  tracing: {
    tracesUrl: string;
    /** Sent with every export; may hold a vendor key: never logged. */
    headers: Record<string, string>;
    serviceName: string;
    /** OTEL_TRACES_SAMPLER, and its ratio for the traceidratio samplers. */
    sampler: { name: string; ratio: number };
  } | null;
}

export const OBSERVABILITY_DEFAULTS = {
  LOG_FORMAT: 'text',
  READINESS_INBOX_MAX_LAG_SECONDS: 300,
  READINESS_REQUIRES_PARTNER: 'true',
  OTEL_SERVICE_NAME: 'partner-payments-reference-app',
  OTEL_TRACES_SAMPLER: 'parentbased_always_on',
} as const;

/** From validated variables (EnvironmentVariables extends ObservabilityVariables). */
export function loadObservabilityConfig(vars: ObservabilityVariables): ObservabilityConfig {
  const base = vars.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  // OpenTelemetry's rule: the per-signal URL is used as is, the base gets /v1/traces appended.
  const tracesUrl = vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base}/v1/traces` : null);
  return {
    logFormat: (vars.LOG_FORMAT ?? OBSERVABILITY_DEFAULTS.LOG_FORMAT) as 'text' | 'json',
    readiness: {
      inboxMaxLagMs:
        (vars.READINESS_INBOX_MAX_LAG_SECONDS ?? OBSERVABILITY_DEFAULTS.READINESS_INBOX_MAX_LAG_SECONDS) *
        1000,
      partnerRequired:
        (vars.READINESS_REQUIRES_PARTNER ?? OBSERVABILITY_DEFAULTS.READINESS_REQUIRES_PARTNER) === 'true',
    },
    tracing:
      tracesUrl && vars.OTEL_SDK_DISABLED !== 'true'
        ? {
            tracesUrl,
            headers: parseOtlpHeaders(vars.OTEL_EXPORTER_OTLP_HEADERS),
            serviceName: vars.OTEL_SERVICE_NAME ?? OBSERVABILITY_DEFAULTS.OTEL_SERVICE_NAME,
            sampler: {
              name: vars.OTEL_TRACES_SAMPLER ?? OBSERVABILITY_DEFAULTS.OTEL_TRACES_SAMPLER,
              ratio: Number(vars.OTEL_TRACES_SAMPLER_ARG ?? 1),
            },
          }
        : null,
  };
}

/** OTEL_EXPORTER_OTLP_HEADERS: `k=v,k2=v2`, values URL-encoded (the OpenTelemetry format). */
export function parseOtlpHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // Not URL-encoded after all: sent as written.
    }
    if (key) headers[key] = decoded;
  }
  return headers;
}
