/**
 * What a probe made at the partner, named in the report so a user can clean up what the kit created,
 * and how the report prints a request.
 */
import type { ConformanceFixtures } from './conformance-fixtures.service';
import type { ConformanceProbe, Observation, ProbeRequest } from './probe.types';
import { statusesOf } from './shape.util';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Names what a write probe created: the id under `<kind>_id` or `id` (a renamed id must not hide a
 * resource; another resource's id in the same body, such as a deposit's user_id, is not it), or
 * the last document of an uploaded item. A probe that `provides` a fixture hands on what made it
 * (path, key, body), so the idempotency probes replay that very request.
 */
export function recordCreated(
  probe: ConformanceProbe,
  request: ProbeRequest,
  observed: Observation,
  ctx: ConformanceFixtures,
): void {
  const body = (observed.body ?? {}) as Record<string, unknown>;
  const documents = (body.item as { documents?: Record<string, unknown>[] } | undefined)?.documents;
  const id = [`${probe.creates}_id`, 'id']
    .map((f) => body[f])
    .concat(documents?.at(-1)?.document_id)
    .find((v): v is string => typeof v === 'string');
  if (!id || ctx.createdResources.some((c) => c.id === id)) return;
  ctx.created(probe.creates ?? 'resource', id, probe.id, probe.cleanup);
  if (probe.provides) {
    const { path, idempotencyKey, version } = request;
    ctx.provide(probe.provides, { id, path, idempotencyKey, body: request.body, version });
  }
}

/** The request as the report prints it: ids as `{id}`, a handed-out link never (it is a credential). */
export const described = (request: ProbeRequest) =>
  `${request.method} ${request.url ? '(the link the previous answer handed out)' : request.path.replace(UUID, '{id}')}`;

/** The id fields a create answers with, by collection (users answer `id`; an old body `user_id`). */
const CREATE_ID_FIELDS: [RegExp, string][] = [
  [/^\/v1\/users$/, 'user_id'],
  [/^\/v1\/recipients$/, 'recipient_id'],
  [/^\/v1\/virtual-accounts$/, 'virtual_account_id'],
  [/\/payout$/, 'payout_id'],
];

/**
 * Records what a 2xx answer made: the resource a create probe expects, or, when a write probe that
 * expected a refusal was answered 2xx (the partner changed), whatever id that answer carries, so a
 * resource made by surprise is named too.
 */
export function recordWhatItMade(
  probe: ConformanceProbe,
  request: ProbeRequest,
  observed: Observation,
  ctx: ConformanceFixtures,
): void {
  if (observed.status < 200 || observed.status > 299) return;
  if (probe.creates) return recordCreated(probe, request, observed, ctx);
  const refusalExpected = statusesOf(probe.expect.status).every((s) => s >= 300);
  if (!probe.writes || request.method !== 'POST' || !refusalExpected) return;
  const body = (observed.body ?? {}) as Record<string, unknown>;
  const fields = ['id', ...CREATE_ID_FIELDS.filter(([re]) => re.test(request.path)).map(([, f]) => f)];
  const id = fields.map((f) => body[f]).find((v): v is string => typeof v === 'string');
  if (id && !ctx.createdResources.some((c) => c.id === id)) {
    ctx.created(
      'unexpected',
      id,
      probe.id,
      'made by a request the documents say is refused: check and remove it by hand',
    );
  }
}
