/**
 * Another tenant's resource is out of reach and indistinguishable from a missing one (evidence §11
 * N14 [T3raw security/bola-id-enumeration]: in 16 probes nothing of another tenant was reachable; a
 * cross-tenant id and a missing id both answered 404).
 */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe, Observation, ProbeContext } from '../../probe.types';
import { evidence, flatError } from '../probe-shapes.util';

/** The body with `id` written as `<id>`, so two answers about two ids compare. */
const withoutId = (body: unknown, id: string) =>
  JSON.stringify(body ?? null)
    .split(id)
    .join('<id>');

export const CROSS_TENANT_PROBES: ConformanceProbe[] = [
  {
    id: 'users.get.other-account',
    area: 'users',
    behaviour:
      'GET /v1/users/{id} of another account\'s user answers exactly as a missing id: 404 { code: not_found, message: "User with ID <id> not found" }',
    sources: [evidence('§11 N14 [T3raw security/bola-id-enumeration/01-bola-results.json]')],
    writes: false,
    needs: ['foreignUser'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/users/${(await ctx.foreignUser()).id}` }),
    expect: { status: 404, shape: flatError('not_found') },
    verify: async (o: Observation, ctx: ProbeContext) => {
      const foreignId = (await ctx.foreignUser()).id;
      const missingId = randomUUID();
      const missing = await ctx.send({ method: 'GET', path: `/v1/users/${missingId}` });
      const same =
        missing.status === o.status && withoutId(missing.body, missingId) === withoutId(o.body, foreignId);
      // Neither body is printed: a difference could be the other account's data.
      return same
        ? []
        : [
            `body: expected the answer a missing id gets (${missing.status}, its id in the message), got another (${o.status})`,
          ];
    },
    sandbox: 'same (its control makes the other account and its user)',
  },
];
