/** Body shapes shared by probes (evidence §2 names them G, Z, B, F; the contract's in spec 7.1). */
import type { ConformanceProbe, Observation, ProbeContext, ProbeRequest, ProbeSource } from '../probe.types';
import type { ProbeArea } from '../report.types';
import { fixtureUser } from '../probe-bodies.util';
import { t, type Shape } from '../shape.util';

/** A divergence unless the gateway names `type` in x-amzn-errortype. */
export const errorType = (type: string) => (o: Observation) =>
  o.headers.get('x-amzn-errortype') === type
    ? []
    : [`header x-amzn-errortype: expected ${type}, got ${o.headers.get('x-amzn-errortype')}`];

/** F: flat `{ code, message }` (spec 5.7, 7.1). */
export const flatError = (code?: string): Shape =>
  t.object({ code: code ? t.enum(code) : t.string, message: t.string });

/** Z: Zod `{ error: 'Invalid request data', details: [{ path, message }] }` (evidence §2). */
export const zodError: Shape = t.object({
  error: t.string,
  details: t.array(t.object({ path: t.string, message: t.string })),
});

/** B: typed `{ error: { code, message, details } }` (evidence §2). */
export const typedError = (code: string): Shape =>
  t.object({ error: t.object({ code: t.enum(code), message: t.string, details: t.any }) });

/**
 * The `pagination` of an offset-paged list, users and virtual accounts alike (evidence §3, §5
 * [T2s Common.cs]: checked against the partner's sandbox for both).
 */
export const offsetPagination: Shape = t.object({
  total: t.integer,
  limit: t.integer,
  offset: t.integer,
  has_more: t.boolean,
});

/** I: the partner's bare 500 `{ status: "error", message: "Internal server error" }` (evidence §2). */
export const internalError: Shape = t.object({ status: t.enum('error'), message: t.string });

/**
 * The virtual-account create's schema refusal `{ code, error, details: [{ message }] }`, each message
 * "<field> is <problem>" with no path (evidence §11 N31, N32).
 */
export const detailMessages: Shape = t.object({
  code: t.enum('validation_error'),
  error: t.string,
  details: t.array(t.object({ message: t.string })),
});

/** The Nest-style standard error `{ statusCode, error, message, timestamp }` (spec 7.1, evidence §11 N13, N33). */
export const standardError: Shape = t.object({
  statusCode: t.integer,
  error: t.string,
  message: t.string,
  timestamp: t.string,
});

/** A divergence unless one of `details[].message` matches `pattern`. */
export function detailSays(pattern: RegExp) {
  return (observed: Observation): string[] => {
    const details = (observed.body as { details?: { message?: unknown }[] }).details ?? [];
    return details.some((d) => typeof d.message === 'string' && pattern.test(d.message))
      ? []
      : [`body.details: expected a message matching ${String(pattern)}, none`];
  };
}

/** spec 7.1 "validation error": every field optional; clients branch on the status. */
export const anyError: Shape = t.object({});

export const contract = (ref: string): ProbeSource => ({ kind: 'contract', ref });
export const evidence = (ref: string): ProbeSource => ({ kind: 'evidence', ref });

/**
 * An offset-paged list asked for a page far larger than any: the partner answers its bare 500
 * instead of clamping the limit (evidence [T3r DRIFT-10], seen on users and virtual accounts).
 */
export function limitTooLargeProbe(area: ProbeArea, listPath: string): ConformanceProbe {
  return {
    id: `${area}.list.limit-too-large`,
    area,
    behaviour: `GET ${listPath}?limit=100000 answers 500 { status: error, message } (the partner does not clamp it)`,
    sources: [evidence('[T3r DRIFT-10]')],
    writes: false,
    request: { method: 'GET', path: `${listPath}?limit=100000` },
    expect: { status: 500, shape: internalError },
  };
}

/** A divergence unless a Zod body names `path` among its details. */
export function namesPath(path: string) {
  return (observed: Observation): string[] => {
    const details = (observed.body as { details?: { path?: unknown }[] }).details ?? [];
    return details.some((d) => d.path === path)
      ? []
      : [`body.details: expected an entry with path "${path}", none`];
  };
}

/** A divergence unless a Zod body has a detail on `path` with exactly `message` (and `code` when given). */
export function hasDetail(path: string, message: string, code?: string) {
  return (observed: Observation): string[] => {
    const details = ((observed.body as { details?: unknown[] }).details ?? []) as Record<string, unknown>[];
    const found = details.find((d) => d.path === path);
    return found?.message === message && (code === undefined || found.code === code)
      ? []
      : [
          `body.details[${path}]: expected "${message}"${code ? ` (${code})` : ''}, got ${JSON.stringify(found?.message)?.slice(0, 100)}`,
        ];
  };
}

/**
 * A divergence unless the refusal names `field` as the one at fault, in whichever documented form
 * (evidence §2: Zod `details[].path`, `errors[].field`); a message that merely contains the word
 * (e.g. "the payout amount") does not count.
 */
export function namesField(field: string) {
  return (observed: Observation): string[] => {
    const text = JSON.stringify(observed.body);
    const forms = [`"path":"${field}"`, `"path":["${field}"]`, `"field":"${field}"`];
    return forms.some((f) => text.includes(f)) ? [] : [`body: expected to name the field ${field}, does not`];
  };
}

/** The RFI interface's version (spec 9.1, evidence §7). */
export const RFI_VERSION = '2026-06-01';

/** POST /v1/recipients for the run user, with a fresh key unless `key` is false. */
export const postRecipient =
  (body: (userId: string, runId: string) => Record<string, unknown>, key = true) =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => ({
    method: 'POST',
    path: '/v1/recipients',
    ...(key ? { idempotencyKey: 'fresh' as const } : {}),
    body: body((await ctx.user()).id, ctx.runId),
  });

/** POST /v1/users: the run's complete user with `changes` on top, with a fresh key unless `key` is false. */
export const postUser =
  (changes: Record<string, unknown> = {}, key = true) =>
  (ctx: ProbeContext): ProbeRequest => ({
    method: 'POST',
    path: '/v1/users',
    ...(key ? { idempotencyKey: 'fresh' as const } : {}),
    body: { ...fixtureUser(ctx.runId), ...changes },
  });

/**
 * A request to the run's virtual account: `/v1/virtual-accounts/{id}` + `suffix` (a function of the
 * context when it holds another id, e.g. a fresh unknown one).
 */
export const onRunAccount =
  (
    suffix: string | (() => string),
    extra: Partial<ProbeRequest> = {},
    method: ProbeRequest['method'] = 'GET',
  ) =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => ({
    method,
    path: `/v1/virtual-accounts/${(await ctx.virtualAccount()).id}${typeof suffix === 'string' ? suffix : suffix()}`,
    ...extra,
  });
