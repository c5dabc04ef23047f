import type { ActiveFault, FaultSpec } from '../control/control.types';
import { newId } from '../server/ids.util';

function routeMatcher(pattern: string): RegExp {
  const [method, ...rest] = pattern.trim().split(/\s+/);
  const path = rest.join(' ') || '*';
  const esc = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${method === '*' ? '[A-Z]+' : esc(method.toUpperCase())} ${esc(path)}$`);
}

const TERMINAL = new Set([
  'server_error',
  'rate_limit',
  'reset',
  'accepted_then_reset',
  'accepted_then_stall',
]);

/** Faults armed by the control API; each matching request consumes one hit of each fault it meets. */
export class FaultStore {
  private active: (ActiveFault & { matcher: RegExp | null })[] = [];

  add(spec: FaultSpec): ActiveFault {
    const kinds = ['latency', ...TERMINAL];
    if (!kinds.includes(spec.kind))
      throw new Error(`unknown fault kind ${String(spec.kind)}; use one of ${kinds.join(', ')}`);
    const fault = {
      id: newId(),
      kind: spec.kind,
      route: spec.route ?? null,
      times: spec.times ?? (spec.kind === 'latency' ? Number.POSITIVE_INFINITY : 1),
      latencyMs: spec.latencyMs ?? { latency: 100, accepted_then_stall: 30_000 }[spec.kind as string] ?? 0,
      status: spec.status ?? (spec.kind === 'rate_limit' ? 429 : 503),
      retryAfterSeconds: spec.retryAfterSeconds ?? 1,
      hits: 0,
      matcher: spec.route ? routeMatcher(spec.route) : null,
    };
    this.active.push(fault);
    return this.view(fault);
  }

  /** The latency to add and at most one terminal fault for this request; consumes their hits. */
  take(route: string): { latencyMs: number; terminal: ActiveFault | undefined } {
    let latencyMs = 0;
    let terminal: ActiveFault | undefined;
    for (const fault of this.active) {
      if (fault.hits >= fault.times) continue;
      if (fault.matcher && !fault.matcher.test(route)) continue;
      if (fault.kind === 'latency') {
        latencyMs += fault.latencyMs;
        fault.hits++;
      } else if (!terminal) {
        terminal = this.view(fault);
        fault.hits++;
      }
    }
    this.active = this.active.filter((f) => f.hits < f.times);
    return { latencyMs, terminal };
  }

  list(): ActiveFault[] {
    return this.active.map((f) => this.view(f));
  }

  clear(): void {
    this.active = [];
  }

  private view(fault: ActiveFault & { matcher?: RegExp | null }): ActiveFault {
    const { matcher: _matcher, ...rest } = fault;
    // JSON has no Infinity: report unlimited as -1 over HTTP-friendly views.
    return { ...rest, times: Number.isFinite(rest.times) ? rest.times : -1 };
  }
}
