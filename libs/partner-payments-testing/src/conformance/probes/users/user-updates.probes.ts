/** Users after create: the strict PUT update and the verification call (evidence §3). */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe, ProbeContext } from '../../probe.types';
import { safeValue, t } from '../../shape.util';
import { contract, evidence, flatError, zodError } from '../probe-shapes.util';

/** The user's status before a verification call, per run (evidence [T3r DRIFT-16]: the call changes nothing). */
const statusBefore = new Map<string, unknown>();
/** users.verifications.key-reuse: the first answer of the run, keyed by run id. */
const firstVerification = new Map<string, { status: number; id: unknown }>();
async function userStatus(ctx: ProbeContext, id: string): Promise<unknown> {
  return (
    (await ctx.send({ method: 'GET', path: `/v1/users/${id}` })).body as { status?: unknown } | undefined
  )?.status;
}

export const USER_UPDATE_PROBES: ConformanceProbe[] = [
  {
    id: 'users.put.strict-type',
    area: 'users',
    behaviour: 'PUT /v1/users/{id} refuses type (400 Zod shape): PUT is strict',
    sources: [evidence('[T1s §3.10]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is written (refused)',
    request: async (ctx) => ({
      method: 'PUT',
      path: `/v1/users/${(await ctx.user()).id}`,
      body: { type: 'business' },
    }),
    expect: { status: 400, shape: zodError },
  },
  {
    id: 'users.put.unknown-key',
    area: 'users',
    behaviour:
      'PUT /v1/users/{id} refuses an unknown key such as registered_address (400 "Unrecognized key(s)")',
    sources: [evidence('[T1s §3.11 B1]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is written (refused)',
    request: async (ctx) => ({
      method: 'PUT',
      path: `/v1/users/${(await ctx.user()).id}`,
      body: { registered_address: { city: 'Austin' } },
    }),
    expect: { status: 400, shape: zodError },
  },
  {
    id: 'users.put.empty',
    area: 'users',
    behaviour:
      'PUT /v1/users/{id} with {} answers 200 with updated_fields [], requires_reverification false and verification_triggered, without warnings',
    sources: [evidence('§11 C5 [T3raw users/15-batchB-put-empty.json]'), evidence('[T3r DRIFT-15]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing changes',
    request: async (ctx) => ({ method: 'PUT', path: `/v1/users/${(await ctx.user()).id}`, body: {} }),
    expect: {
      status: 200,
      shape: t.object(
        {
          id: t.string,
          updated_fields: t.array(t.string),
          requires_reverification: t.boolean,
          verification_triggered: t.boolean,
        },
        ['warnings'],
      ),
    },
    verify: (observed) => {
      const b = observed.body as { updated_fields: unknown[]; requires_reverification: boolean };
      const out: string[] = [];
      if (b.updated_fields.length)
        out.push(`body.updated_fields: expected [], got ${b.updated_fields.length} entries`);
      if (b.requires_reverification) out.push('body.requires_reverification: expected false, got true');
      return out;
    },
  },
  {
    id: 'users.patch-not-a-route',
    area: 'users',
    behaviour: 'PATCH /v1/users/{id} is not a route: 403 invalid_request (the update is PUT)',
    sources: [contract('§7.5'), evidence('[T1s §3.10-3.11]')],
    writes: false,
    request: () => ({ method: 'PATCH', path: `/v1/users/${randomUUID()}`, body: { first_name: 'X' } }),
    expect: { status: 403, shape: flatError('invalid_request') },
  },
  {
    id: 'users.verifications',
    area: 'users',
    behaviour:
      'POST /v1/users/{id}/verifications answers 201 { id, verification_link, status } and leaves the user as it was',
    sources: [evidence('[T3r DRIFT-16, 17, 25]')],
    writes: true,
    needs: ['user'],
    creates: 'verification',
    cleanup: 'a verification link of the run user; nothing to delete',
    request: async (ctx) => {
      const id = (await ctx.user()).id;
      statusBefore.set(ctx.runId, await userStatus(ctx, id));
      return {
        method: 'POST',
        path: `/v1/users/${id}/verifications`,
        idempotencyKey: 'fresh',
        body: { type: 'embedded-link' },
      };
    },
    expect: {
      status: 201,
      shape: t.object({ id: t.string, verification_link: t.nullable(t.string), status: t.string }),
    },
    verify: async (_observed, ctx) => {
      const before = statusBefore.get(ctx.runId);
      const after = await userStatus(ctx, (await ctx.user()).id);
      return after === before
        ? []
        : [`user.status: expected unchanged (${safeValue(before)}), got ${safeValue(after)}`];
    },
  },
  {
    id: 'users.verifications.key-reuse',
    area: 'users',
    behaviour:
      'The verifications call with a used key and another body makes a second one (201 with another id), no conflict',
    sources: [evidence('[T3r DRIFT-16, 17, 25]')],
    writes: true,
    needs: ['user'],
    creates: 'verification',
    cleanup: 'a verification link of the run user; nothing to delete',
    request: async (ctx) => {
      const path = `/v1/users/${(await ctx.user()).id}/verifications`;
      const key = randomUUID();
      const first = await ctx.send({
        method: 'POST',
        path,
        idempotencyKey: key,
        body: { type: 'embedded-link' },
      });
      firstVerification.set(ctx.runId, { status: first.status, id: (first.body as { id?: unknown })?.id });
      return { method: 'POST', path, idempotencyKey: key, body: { type: 'api' } };
    },
    expect: { status: 201, shape: t.object({ id: t.string, status: t.string }) },
    // "a second one" [T3r DRIFT-25]: a replay of the first answer (same id) would be a conflict
    // handled silently, which is not what the partner does.
    verify: (observed, ctx) => {
      const first = firstVerification.get(ctx.runId);
      if (first?.status !== 201 || typeof first.id !== 'string')
        return [`the first call: expected 201 with an id, got ${String(first?.status)}`];
      return (observed.body as { id?: unknown }).id === first.id
        ? ['body.id: expected another verification than the first (a second one), got the same id']
        : [];
    },
  },
];
