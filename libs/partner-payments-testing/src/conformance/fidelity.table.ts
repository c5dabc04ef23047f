/**
 * The sandbox README's fidelity table, generated from the probes (issue 12: the probes are its
 * single source, so the table cannot drift from what CI checks). `npm run fidelity:table` writes
 * it between the README's markers; test/conformance/fidelity-table.e2e-spec.ts fails when they differ.
 */
import { formatSource } from './explain.util';
import type { ConformanceProbe } from './probe.types';
import { CONFORMANCE_PROBES } from './probes';

export const FIDELITY_BEGIN = '<!-- fidelity:begin -->';
export const FIDELITY_END = '<!-- fidelity:end -->';

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
const statuses = (s: number | readonly number[]) => (typeof s === 'number' ? [s] : s).join(' or ');

/** The markdown table (without the markers): one row per probe, in run order. */
export function fidelityTable(probes: readonly ConformanceProbe[] = CONFORMANCE_PROBES): string {
  const rows = [
    '| probe | the partner (documented behaviour) | status | source | what our sandbox does | writes |',
    '|---|---|---|---|---|---|',
  ];
  for (const p of probes) {
    const conflict = p.knownConflict ? ` (evidence conflict: ${p.knownConflict})` : '';
    rows.push(
      `| \`${p.id}\` | ${md(p.behaviour + conflict)} | ${statuses(p.expect.status)} | ${md(p.sources.map(formatSource).join('; '))} | ${md(p.sandbox ?? 'same')} | ${p.writes ? 'yes' : 'no'} |`,
    );
  }
  return `${rows.join('\n')}\n`;
}

/** `readme` with the generated table between the markers; throws when a marker is missing. */
export function withFidelityTable(readme: string, table = fidelityTable()): string {
  const begin = readme.indexOf(FIDELITY_BEGIN);
  const end = readme.indexOf(FIDELITY_END);
  if (begin < 0 || end < begin) throw new Error(`README lacks ${FIDELITY_BEGIN} ... ${FIDELITY_END}`);
  return `${readme.slice(0, begin + FIDELITY_BEGIN.length)}\n${table}${readme.slice(end)}`;
}
