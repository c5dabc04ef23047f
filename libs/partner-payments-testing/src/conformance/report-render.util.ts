/**
 * The conformance report for people (a table, then each divergence explained) and for machines
 * (JSON). Both are built from a report whose strings were redacted by the runner.
 */
import type { ConformanceReport, ProbeResult } from './report.types';

const RESULT: Record<ProbeResult['outcome'], string> = {
  match: 'match',
  diverge: 'DIVERGE',
  skipped: 'skipped',
  error: 'ERROR',
};

function cell(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat.padEnd(width);
}

/** The terminal report: header, table, divergences with the side the kit believes, created resources. */
export function renderReport(report: ConformanceReport, options: { width?: number } = {}): string {
  const expectedWidth = Math.max(24, (options.width ?? 160) - 34 - 22 - 9 - 28 - 8);
  const lines: string[] = [];
  lines.push(
    `partner conformance: ${report.baseUrl} (${report.environment}, a ${report.target}), run ${report.runId}`,
  );
  lines.push(
    report.writes
      ? 'write probes: ON (sandbox, --allow-writes)'
      : `write probes: OFF: ${report.readOnlyReason}`,
  );
  lines.push('');
  const header = `${cell('probe', 34)}  ${cell('expected', expectedWidth)}  ${cell('observed', 22)}  ${cell('result', 9)}  source`;
  lines.push(header, '-'.repeat(Math.min(header.length + 20, options.width ?? 160)));
  for (const r of report.results) {
    lines.push(
      `${cell(r.id, 34)}  ${cell(r.expected, expectedWidth)}  ${cell(r.observed, 22)}  ${cell(RESULT[r.outcome], 9)}  ${r.source}`,
    );
  }
  const s = report.summary;
  lines.push(
    '',
    `${s.total} probes: ${s.match} match, ${s.diverge} diverge, ${s.error} error, ${s.skipped} skipped`,
  );

  const bad = report.results.filter((r) => r.outcome === 'diverge' || r.outcome === 'error');
  if (bad.length) lines.push('', 'Divergences:');
  for (const r of bad) {
    lines.push('', `${RESULT[r.outcome]} ${r.id}: ${r.behaviour}`);
    if (r.request) lines.push(`  request: ${r.request}`);
    lines.push(`  source: ${r.source}`, `  expected: ${r.expected}`);
    for (const d of r.differences) lines.push(`  - ${d}`);
    if (r.observedMessage) lines.push(`  partner said: ${r.observedMessage}`);
    if (r.explanation) lines.push(`  ${r.explanation}`);
  }
  const skipped = report.results.filter((r) => r.outcome === 'skipped');
  if (skipped.length) {
    const reasons = new Map<string, string[]>();
    for (const r of skipped)
      reasons.set(r.explanation ?? '', [...(reasons.get(r.explanation ?? '') ?? []), r.id]);
    lines.push('', 'Skipped:');
    for (const [why, ids] of reasons) lines.push(`  ${ids.length} probe${ids.length > 1 ? 's' : ''}: ${why}`);
  }
  lines.push(
    '',
    report.created.length
      ? 'Created by this run (find them by metadata.conformance_run):'
      : 'Created by this run: nothing',
  );
  for (const c of report.created) lines.push(`  ${c.kind} ${c.id} (probe ${c.probe}): ${c.cleanup}`);
  lines.push('', report.ok ? 'RESULT: conforms' : 'RESULT: DIVERGES (exit code 1)');
  return `${lines.join('\n')}\n`;
}

/** The JSON report (the same content, for CI and diffing between partner releases). */
export function reportJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
