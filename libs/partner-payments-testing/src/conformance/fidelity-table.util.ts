/**
 * The sandbox's fidelity table (docs/testing/fidelity.md), generated from the probes (they are its
 * single source, so the table cannot drift from what CI checks). `npm run fidelity:table` writes
 * it between the page's markers; test/conformance/fidelity-table.e2e-spec.ts fails when they differ.
 */
import { formatSource } from './explain.util';
import type { ConformanceProbe } from './probe.types';
import { CONFORMANCE_PROBES } from './probes';
import { statusesOf } from './shape.util';

export const FIDELITY_BEGIN = '<!-- fidelity:begin -->';
export const FIDELITY_END = '<!-- fidelity:end -->';

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
const statuses = (s: number | readonly number[]) => statusesOf(s).join(' or ');

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

/**
 * A table's rows with cells trimmed and separator rows reduced, so a markdown formatter that pads
 * the columns (prettier does) changes nothing that counts.
 */
export function normaliseTable(markdown: string): string[] {
  return markdown
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\s+/g, ' '))
        .map((cell) => (/^-+$/.test(cell) ? '---' : cell))
        .join('|'),
    );
}

/** The table between the README's markers (throws when a marker is missing). */
export function readmeFidelityTable(readme: string): string {
  const begin = readme.indexOf(FIDELITY_BEGIN);
  const end = readme.indexOf(FIDELITY_END);
  if (begin < 0 || end < begin) throw new Error(`README lacks ${FIDELITY_BEGIN} ... ${FIDELITY_END}`);
  return readme.slice(begin + FIDELITY_BEGIN.length, end);
}

/** True when the README's table says what the probes say, whatever its column padding. */
export function fidelityTableInSync(readme: string, table = fidelityTable()): boolean {
  return (
    JSON.stringify(normaliseTable(readmeFidelityTable(readme))) === JSON.stringify(normaliseTable(table))
  );
}
