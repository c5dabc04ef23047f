import type { RequestLogEntry, ResourceKind, SandboxCounters } from '../control/control.types';
import { isUuid } from './ids.util';

const KINDS: ResourceKind[] = [
  'users',
  'recipients',
  'virtual_accounts',
  'payouts',
  'deposits',
  'documents',
  'rfis',
  'liveness_links',
  'liquidation_addresses',
  'verifications',
];

/** Headers never kept in the request log: logs never carry credentials. */
const REDACTED = new Set(['x-api-key', 'authorization', 'cookie', 'proxy-authorization']);

export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = REDACTED.has(name.toLowerCase())
      ? '[redacted]'
      : Array.isArray(value)
        ? value.join(', ')
        : value;
  }
  return out;
}

/** `POST /sandbox/v1/users/<uuid>/liveness-link` → `POST /v1/users/:id/liveness-link`. */
export function routeTemplate(method: string, path: string): string {
  const clean = path.split('?')[0].replace(/^\/sandbox(?=\/|$)/, '') || '/';
  const segments = clean.split('/').map((s) => (isUuid(s) ? ':id' : s));
  return `${method.toUpperCase()} ${segments.join('/')}`;
}

export class Telemetry {
  counters: SandboxCounters = Telemetry.emptyCounters();
  readonly requestLog: RequestLogEntry[] = [];
  private seq = 0;
  /** Keep memory bounded in long standalone runs. */
  private static readonly MAX_LOG = 5000;

  static emptyCounters(): SandboxCounters {
    const created = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<ResourceKind, number>;
    return {
      created,
      authCalls: 0,
      authFailures: 0,
      requests: {},
      idempotentReplays: 0,
      idempotencyKeyReuses: 0,
      webhooksSent: 0,
    };
  }

  created(kind: ResourceKind, by = 1): void {
    this.counters.created[kind] += by;
  }

  request(route: string): void {
    this.counters.requests[route] = (this.counters.requests[route] ?? 0) + 1;
  }

  log(entry: Omit<RequestLogEntry, 'seq'>): RequestLogEntry {
    const full: RequestLogEntry = { seq: ++this.seq, ...entry };
    this.requestLog.push(full);
    if (this.requestLog.length > Telemetry.MAX_LOG) this.requestLog.shift();
    return full;
  }

  reset(): void {
    this.counters = Telemetry.emptyCounters();
    this.requestLog.length = 0;
  }
}
