import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { currentPartnerLogContext } from '@partner-payments/nestjs/observability';
import type { AppConfig } from '../config/app.config';
import { currentLogFields } from './log-context.util';

/**
 * Keys masked wherever they appear in a structured value (Nest's own `redact` option). The app and
 * the module never log these (tested at LOG_LEVEL=verbose); this keeps a future mistake out too.
 */
const REDACTED_KEYS = [
  'password',
  'apiKey',
  'api_key',
  'x-api-key',
  'authorization',
  'token',
  'accessToken',
  'access_token',
  'secret',
  'secrets',
  'webhookSecret',
  'operatorToken',
  'accountNumber',
  'account_number',
];

/** Nest's start-up route table, a line per route: for debugging, not for the first screen. */
const ROUTE_TABLE_CONTEXTS = new Set(['RoutesResolver', 'RouterExplorer']);

/** True when Nest logs a line of its route table (its context is the last parameter). */
export function isRouteTableLine(params: readonly unknown[]): boolean {
  const context = params[params.length - 1];
  return typeof context === 'string' && ROUTE_TABLE_CONTEXTS.has(context);
}

/** LOG_FORMAT=text: Nest's ConsoleLogger, its route table at debug level (LOG_LEVEL=debug shows it). */
export class AppTextLogger extends ConsoleLogger {
  override log(message: unknown, ...params: unknown[]): void {
    if (isRouteTableLine(params)) return this.debug(message, ...params);
    super.log(message, ...params);
  }
}

/** Configured secret values a line must never show, whatever carries them (8 characters and more). */
export function configuredSecrets(config: AppConfig): string[] {
  const p = config.partner;
  const values = [
    p.apiKey,
    p.password,
    p.clientId,
    ...p.webhookSecrets,
    config.access.operatorToken,
    ...config.access.apiKeys,
    ...Object.values(config.observability.tracing?.headers ?? {}),
  ];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length >= 8))];
}

/**
 * LOG_FORMAT=json: Nest's ConsoleLogger in json mode (one object per line: level, pid, timestamp,
 * context, message, error), plus the ids of the work the line belongs to (request_id, event_id,
 * payout_id; trace_id and span_id when a span is active), the same redaction as text mode (nothing
 * secret is logged by construction) and, as a second line of defence, the configured secret values
 * masked in every string of the line.
 */
export class AppJsonLogger extends ConsoleLogger {
  constructor(
    private readonly secrets: readonly string[],
    logLevels: LogLevel[],
  ) {
    super({ json: true, logLevels, redact: REDACTED_KEYS });
  }

  override log(message: unknown, ...params: unknown[]): void {
    if (isRouteTableLine(params)) return this.debug(message, ...params);
    super.log(message, ...params);
  }

  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const line = super.getJsonLogObject(message, options);
    // The module's own context (the webhook event being received or processed) first, then the app's.
    const event = currentPartnerLogContext();
    const fields = { ...(event ? { event_id: event.eventId } : {}), ...currentLogFields() };
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined && !(key in line)) line[key] = value;
    const span = trace.getActiveSpan()?.spanContext();
    if (span && isSpanContextValid(span)) {
      line.trace_id = span.traceId;
      line.span_id = span.spanId;
    }
    return this.secrets.length ? (mask(line, this.secrets, 0) as typeof line) : line;
  }
}

function mask(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
    return out;
  }
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => mask(v, secrets, depth + 1));
  // Only plain records are copied; anything else (a Date, a Buffer) is printed as Nest prints it.
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = mask(v, secrets, depth + 1);
  return out;
}
