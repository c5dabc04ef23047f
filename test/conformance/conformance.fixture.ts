/**
 * Shared by the conformance suites: a sandbox pinned as the contract says accounts are (spec 9.1),
 * with two authorized banks, as the kit's write probes need (they read them from GET
 * /v1/clients/{uuid}; the partner's default is none, spec 2.4).
 */
import {
  runConformance,
  sandboxConformanceHooks,
  startPartnerSandbox,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceWebhookOptions,
  type PartnerSandbox,
  type PartnerSandboxOptions,
} from '@partner-payments/testing';

export function startPinnedSandbox(options: PartnerSandboxOptions = {}): Promise<PartnerSandbox> {
  return startPartnerSandbox({
    pinnedVersion: '2026-04-14',
    authorizedBanks: ['bank_a', 'bank_b'],
    verificationDelayMs: 0, // users reach REVIEW at once (the partner: ~10 s, the sandbox's default)
    ...options,
  });
}

/**
 * A production base whose credentials work, for the kit's write policy: the root served as the
 * sandbox (`bases: 'both'`, the opt-in convenience). By default the root refuses sandbox
 * credentials as the partner's other stage does (evidence §11 N1).
 */
export const PRODUCTION_STAND_IN = { bases: 'both' } as const;

/** A pinned sandbox for the enclosing describe: started before its tests, closed after them. */
export function usePinnedSandbox(ready: (sandbox: PartnerSandbox) => void): void {
  let sandbox: PartnerSandbox | undefined;
  beforeAll(async () => ready((sandbox = await startPinnedSandbox())));
  afterAll(() => sandbox?.close());
}

/** The kit against `baseUrl` with the sandbox's credentials and control hooks, writes on. */
export function runAgainst(
  sandbox: PartnerSandbox,
  baseUrl: string,
  extra: Partial<ConformanceOptions> = {},
): Promise<ConformanceReport> {
  return runConformance({
    baseUrl,
    credentials: sandbox.credentials,
    allowWrites: true,
    hooks: sandboxConformanceHooks(sandbox.baseUrl),
    settleMs: 2000,
    ...extra,
  });
}

export const idsWith = (report: ConformanceReport, outcome: string) =>
  report.results.filter((r) => r.outcome === outcome).map((r) => r.id);

/**
 * The kit's webhook receiver on a free loopback port, with the sandbox's secret; the control hooks
 * point the sandbox's deliveries at it for the run (at the partner the operator registers it).
 */
export const receiverFor = (sandbox: PartnerSandbox): ConformanceWebhookOptions => ({
  host: '127.0.0.1',
  port: 0,
  secret: sandbox.webhookSecret,
  timeoutMs: 20_000,
});
