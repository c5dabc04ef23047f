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
  [/^\[T[12] /, 'a reading of client code or docs, not a runtime observation (weaker)'],
];

export function evidenceDate(ref: string): string {
  return EVIDENCE_DATES.find(([re]) => re.test(ref))?.[1] ?? 'an evidence note';
}

/** `contract §4.4` / `evidence [T3r DRIFT-35]` */
export function formatSource(source: ProbeSource): string {
  return `${source.kind} ${source.ref}`;
}

/** One paragraph per divergence: the side the kit believes and how to read the disagreement. */
export function explainDivergence(probe: ConformanceProbe): string {
  const believed = probe.sources[0];
  const side =
    believed.kind === 'contract'
      ? `The kit believes the contract (docs/partner-api.md ${believed.ref}), which wins over every observation.`
      : `The kit believes the evidence ${believed.ref} (${evidenceDate(believed.ref)}); the contract is silent here.`;
  const known = probe.knownConflict ? ` Known conflict, not a change: ${probe.knownConflict}.` : '';
  const reading =
    believed.kind === 'contract'
      ? ' Against the partner: it departs from its own contract (raise it with the partner; simulators keep the contract). Against a simulator: the simulator is wrong.'
      : ' Against the partner: the partner changed since that observation (update docs/partner-evidence.md, then the sandbox). Against a simulator: the simulator is wrong.';
  return `${side}${known}${reading}`;
}
