/** What a conformance run answers: one result per probe, what it created, a summary. */

/** The part of the API a probe covers. */
export type ProbeArea =
  | 'auth'
  | 'gateway'
  | 'users'
  | 'recipients'
  | 'reference-data'
  | 'clients'
  | 'virtual-accounts'
  | 'payouts'
  | 'rfis'
  | 'uploads'
  | 'versioning'
  | 'webhooks';

export type ProbeOutcome = 'match' | 'diverge' | 'skipped' | 'error';

export interface ProbeResult {
  id: string;
  area: ProbeArea;
  behaviour: string;
  /** `contract §4.4` or `evidence [T3r DRIFT-35]`. */
  source: string;
  writes: boolean;
  /** `POST /v1/users/{id}/verifications`: the request as sent, ids replaced by `{id}`; absent when not run. */
  request?: string;
  outcome: ProbeOutcome;
  /** `201 { id: string, ... }` */
  expected: string;
  /** `201 as expected` or `409 (1 field differs)`; never a value beyond an enum-like word. */
  observed: string;
  differences: string[];
  /** For a divergence: which side the kit believes and what that means. For a skip: why. */
  explanation?: string;
  /** The observed error message (redacted), to help read a divergence. */
  observedMessage?: string;
}

export interface CreatedResource {
  kind: string;
  id: string;
  probe: string;
  cleanup: string;
}

export interface ConformanceReport {
  baseUrl: string;
  environment: 'sandbox' | 'production';
  /** `simulator` (hooks given or a loopback host) or `partner`: how divergences are read. */
  target: 'partner' | 'simulator';
  /** True when write probes ran. */
  writes: boolean;
  /** Why write probes did not run, when they did not. */
  readOnlyReason?: string;
  runId: string;
  startedAt: string;
  results: ProbeResult[];
  created: CreatedResource[];
  summary: Record<ProbeOutcome, number> & { total: number };
  /** True when nothing diverged and nothing failed to run. */
  ok: boolean;
}
