/**
 * runConformance: sends every probe to a base URL and compares what comes back with what the
 * documents say. Probes run one after another: fixtures are shared, and a partner's
 * sandbox is rate limited (evidence §1: 20 req/s).
 */
import { randomUUID } from 'node:crypto';
import { ProbeSkipped } from './conformance-context.service';
import { explainDivergence, formatSource, targetOf } from './explain.util';
import { CONFORMANCE_PROBES } from './probes';
import type { ConformanceOptions, ConformanceProbe, Observation } from './probe.types';
import type { ConformanceReport, ProbeResult } from './report.types';
import { described, recordWhatItMade } from './created.util';
import { redact, writePolicy } from './safety.util';
import { describeShape, matchShape, statusesOf } from './shape.util';
import { ConformanceRunFixtures } from './webhooks/webhook-fixtures.service';
import { withWebhookInbox } from './webhooks/webhook-session.util';

/** `201 { id: string, ... }` */
export function describeExpectation(probe: ConformanceProbe): string {
  const shape = describeShape(probe.expect.shape);
  const headers = probe.expect.headers?.length ? ` + header ${probe.expect.headers.join(', ')}` : '';
  return `${statusesOf(probe.expect.status).join('|')} ${shape}${headers}`;
}

/** The error message a body carries (`message`, `error.message` or `error`), for the report. */
function messageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { message?: unknown; error?: unknown };
  if (typeof b.message === 'string') return b.message;
  if (b.error && typeof b.error === 'object') {
    const m = (b.error as { message?: unknown }).message;
    if (typeof m === 'string') return m;
  }
  return typeof b.error === 'string' ? b.error : undefined;
}

/** Shapes that do not require a JSON body: a file, or a body the documents do not show. */
const ANY_BODY = new Set(['nonJson', 'unspecified']);

async function compare(probe: ConformanceProbe, observed: Observation, ctx: ConformanceRunFixtures) {
  const differences: string[] = [];
  if (!statusesOf(probe.expect.status).includes(observed.status)) {
    differences.push(
      `status: expected ${statusesOf(probe.expect.status).join(' or ')}, got ${observed.status}`,
    );
  }
  if (!ANY_BODY.has(probe.expect.shape.kind) && !observed.json) {
    differences.push('body: expected JSON, got a non-JSON or empty body');
  } else {
    differences.push(...matchShape(probe.expect.shape, observed.body));
  }
  for (const header of probe.expect.headers ?? []) {
    if (!observed.headers.has(header)) differences.push(`header ${header}: expected present, absent`);
  }
  // Value checks only make sense once the status and shape agree.
  if (differences.length === 0 && probe.verify) differences.push(...(await probe.verify(observed, ctx)));
  return differences;
}

async function runProbe(
  probe: ConformanceProbe,
  ctx: ConformanceRunFixtures,
  writes: boolean,
): Promise<ProbeResult> {
  try {
    return await attempt(probe, ctx, writes);
  } finally {
    // Only after a probe that ran: a skipped write probe touched nothing.
    if (!probe.writes || writes) await probe.after?.(ctx);
  }
}

async function attempt(
  probe: ConformanceProbe,
  ctx: ConformanceRunFixtures,
  writes: boolean,
): Promise<ProbeResult> {
  const base = {
    id: probe.id,
    area: probe.area,
    behaviour: probe.behaviour,
    source: formatSource(probe.sources[0]),
    writes: probe.writes,
    expected: describeExpectation(probe),
  };
  if (probe.writes && !writes) {
    return {
      ...base,
      outcome: 'skipped',
      observed: 'not run',
      differences: [],
      explanation: 'write probe: not run in a read-only run',
    };
  }
  try {
    for (const need of probe.needs ?? []) await ctx[need]();
    const built = typeof probe.request === 'function' ? await probe.request(ctx) : probe.request;
    // A fresh key is drawn here, not in send(), so a probe that provides a fixture can hand it on.
    const request = built.idempotencyKey === 'fresh' ? { ...built, idempotencyKey: randomUUID() } : built;
    const sent = described(request);
    const observed = await ctx.send(request);
    recordWhatItMade(probe, request, observed, ctx);
    const differences = await compare(probe, observed, ctx);
    const message = messageOf(observed.body);
    if (differences.length === 0) {
      return {
        ...base,
        request: sent,
        outcome: 'match',
        observed: `${observed.status} as expected`,
        differences,
      };
    }
    return {
      ...base,
      request: sent,
      outcome: 'diverge',
      observed: `${observed.status} (${differences.length} difference${differences.length > 1 ? 's' : ''})`,
      differences,
      explanation: explainDivergence(probe, ctx.target),
      // Cut after redaction (below): a cut token would no longer match the run's tokens.
      observedMessage: message,
    };
  } catch (error) {
    if (error instanceof ProbeSkipped) {
      return {
        ...base,
        outcome: 'skipped',
        observed: 'not run',
        differences: [],
        explanation: error.message,
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      outcome: 'error',
      observed: 'no answer',
      differences: [message],
      explanation: `the probe could not run: ${message}`,
    };
  }
}

/**
 * Runs the conformance probes against `baseUrl` and answers the report (never throws for a
 * divergence: read `report.ok`). Write probes run only on a sandbox base URL with `allowWrites`.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const policy = writePolicy(options.baseUrl, options.allowWrites === true, options.environment);
  const ctx = new ConformanceRunFixtures(
    options,
    policy.writes,
    targetOf(options.baseUrl, options.hooks !== undefined),
  );
  const starts = (id: string, prefixes?: readonly string[]) =>
    prefixes?.some((p) => id.startsWith(p)) === true;
  const probes = (options.probes ?? CONFORMANCE_PROBES).filter(
    (p) => (!options.only?.length || starts(p.id, options.only)) && !starts(p.id, options.skip),
  );
  if (probes.length === 0) {
    throw new Error(
      `no probe left: --only ${options.only?.join(',') ?? '(all)'} --skip ${options.skip?.join(',') ?? '(none)'}`,
    );
  }
  const startedAt = new Date().toISOString();
  const results: ProbeResult[] = [];
  await withWebhookInbox(options, ctx, async () => {
    for (const probe of probes) results.push(await runProbe(probe, ctx, policy.writes));
  });

  const secrets = [
    options.credentials.apiKey,
    options.credentials.password,
    ...(options.webhooks?.secret ? [options.webhooks.secret] : []),
    ...ctx.tokens,
  ];
  const clean = (s: string) => redact(s, secrets);
  for (const r of results) {
    r.differences = r.differences.map(clean);
    if (r.request) r.request = clean(r.request);
    if (r.observedMessage) r.observedMessage = clean(r.observedMessage).slice(0, 160);
    if (r.explanation) r.explanation = clean(r.explanation);
  }
  const summary = { total: results.length, match: 0, diverge: 0, skipped: 0, error: 0 };
  for (const r of results) summary[r.outcome] += 1;
  return {
    baseUrl: clean(options.baseUrl),
    environment: policy.environment,
    target: ctx.target,
    writes: policy.writes,
    readOnlyReason: policy.readOnlyReason,
    runId: ctx.runId,
    startedAt,
    results,
    created: ctx.createdResources,
    summary,
    ok: summary.diverge === 0 && summary.error === 0,
  };
}
