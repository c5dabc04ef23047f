/**
 * What a divergence means. Precedence (docs/partner-evidence.md): the contract > the evidence >
 * provider facts, and among sandbox observations the newer one wins. The kit states which side it
 * believes, so a reader can tell "the partner changed" from "the simulator is wrong".
 */
import type { ConformanceProbe, ProbeSource } from './probe.types';

/** When each evidence family was observed (docs/partner-evidence.md, "Tags"). */
const EVIDENCE_DATES: [RegExp, string][] = [
  [/^\[T3r/, 'a runtime probe of the partner sandbox, May 2026'],
  [/^\[T2s/, 'the kira-sdk checked against the partner sandbox, Jul 2026'],
  [/^\[T1s/, 'a sandbox check, Sep 2026'],
  [/^\[D /, "the partner's official docs"],
  [/^\[R /, "the partner's older readme docs"],
  [/^\[T[12][ \]]/, 'a reading of client code or docs, not a runtime observation (weaker)'],
];

export function evidenceDate(ref: string): string {
  return EVIDENCE_DATES.find(([re]) => re.test(ref))?.[1] ?? 'an evidence note';
}

/** `contract §4.4` / `evidence [T3r DRIFT-35]` */
export function formatSource(source: ProbeSource): string {
  return `${source.kind} ${source.ref}`;
}

/**
 * What the kit is talking to: a simulator (hooks given, or a loopback host: this package's sandbox,
 * a stand-in) or the partner. It decides which reading of a divergence comes first.
 */
export type ConformanceTarget = 'partner' | 'simulator';

export function targetOf(baseUrl: string, hasHooks: boolean): ConformanceTarget {
  const host = new URL(baseUrl).hostname;
  const loopback = host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
  return hasHooks || loopback ? 'simulator' : 'partner';
}

/** One paragraph per divergence: the side the kit believes and how to read the disagreement. */
export function explainDivergence(probe: ConformanceProbe, target: ConformanceTarget): string {
  const believed = probe.sources[0];
  // An evidence-first probe may cite the contract too: the contract states the rule (a key is
  // required), the evidence the detail probed (the status and shape of the refusal).
  const cited = probe.sources.find((s) => s.kind === 'contract');
  const contract = cited
    ? `the contract (${cited.ref}) does not settle this detail`
    : 'the contract is silent here';
  const side =
    believed.kind === 'contract'
      ? `The kit believes the contract (docs/partner-api.md ${believed.ref}), which wins over every observation.`
      : `The kit believes the evidence ${believed.ref} (${evidenceDate(believed.ref)}); ${contract}.`;
  const known = probe.knownConflict ? ` Known conflict, not a change: ${probe.knownConflict}.` : '';
  if (target === 'simulator') {
    return `${side}${known} This is a simulator: the simulator is wrong (fix it, or the probe if the documents changed).`;
  }
  const reading =
    believed.kind === 'contract'
      ? ' The partner departs from its own contract: raise it with the partner (simulators keep the contract).'
      : ' The partner changed since that observation: record it in docs/partner-evidence.md, then change the sandbox and this probe.';
  return `${side}${known}${reading}`;
}
