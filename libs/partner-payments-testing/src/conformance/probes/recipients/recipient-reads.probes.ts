/** Recipients read back, listed and filtered: spec 2.3, 2.5, 4.4, 8; evidence §2 and §4. */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe } from '../../probe.types';
import { fixtureRecipient } from '../../probe-bodies.util';
import { t } from '../../shape.util';
import { contract, evidence, flatError, postRecipient, typedError } from '../probe-shapes.util';
import { wireShape } from './recipients.probes';

export const RECIPIENT_READ_PROBES: ConformanceProbe[] = [
  {
    id: 'recipients.get',
    area: 'recipients',
    behaviour: 'GET /v1/recipients/{id} answers the recipient as created',
    sources: [evidence('[D get-a-recipient]'), contract('§2.3')],
    writes: true,
    needs: ['recipient'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/recipients/${(await ctx.recipient()).id}` }),
    expect: { status: 200, shape: wireShape },
  },
  {
    id: 'recipients.list',
    area: 'recipients',
    behaviour: 'GET /v1/recipients?user_id= answers { recipients, total }',
    sources: [contract('§4.4'), evidence('[T3r DRIFT-33]')],
    writes: true,
    needs: ['recipient'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/recipients?user_id=${(await ctx.user()).id}` }),
    expect: { status: 200, shape: t.object({ recipients: t.array(wireShape), total: t.integer }) },
  },
  {
    id: 'recipients.list.no-user-id',
    area: 'recipients',
    behaviour:
      'GET /v1/recipients without user_id answers 400 { error: { code: VALIDATION_ERROR, details: {} } }',
    sources: [evidence('[T3r DRIFT-13]'), evidence('[T2s README]')],
    writes: false,
    request: { method: 'GET', path: '/v1/recipients' },
    expect: { status: 400, shape: typedError('VALIDATION_ERROR') },
  },
  {
    id: 'recipients.list.unknown-user',
    area: 'recipients',
    behaviour: 'GET /v1/recipients for an unknown user_id answers 404 in the typed shape',
    sources: [evidence('[T3r evidence 22]'), evidence('[T2s README]')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/recipients?user_id=${randomUUID()}` }),
    expect: { status: 404, shape: t.object({ error: t.object({ code: t.string, message: t.string }) }) },
  },
  {
    id: 'recipients.get.malformed-id',
    area: 'recipients',
    behaviour: 'GET /v1/recipients/{id} with a malformed id answers 400',
    sources: [evidence('[D get-a-recipient]')],
    writes: false,
    request: { method: 'GET', path: '/v1/recipients/not-a-uuid' },
    expect: { status: 400, shape: t.object({}) },
  },
  {
    id: 'recipients.get.unknown',
    area: 'recipients',
    behaviour: "GET /v1/recipients/{id} for a missing or another client's recipient answers 404",
    sources: [evidence('[D get-a-recipient]')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/recipients/${randomUUID()}` }),
    expect: { status: 404, shape: t.object({}) },
  },
  {
    id: 'recipients.delete-not-a-route',
    area: 'recipients',
    behaviour: 'DELETE /v1/recipients/{id} is not a route: 403 invalid_request',
    sources: [contract('§7.5'), evidence('[T3r DRIFT-39]')],
    knownConflict:
      "the partner's gateway answers that 403 with its own body [T3r DRIFT-39]; CONTRACT WINS on the body",
    writes: false,
    request: () => ({ method: 'DELETE', path: `/v1/recipients/${randomUUID()}` }),
    expect: { status: 403, shape: flatError('invalid_request') },
  },
  // spec 2.5, 4.4, 8: metadata filters and limits.
  {
    id: 'recipients.list.metadata-filter',
    area: 'recipients',
    behaviour:
      'GET /v1/recipients?user_id=&metadata[key]=value answers only recipients whose metadata matches',
    sources: [contract('§4.4')],
    writes: true,
    needs: ['recipient'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/recipients?user_id=${(await ctx.user()).id}&metadata[conformance_run]=${encodeURIComponent(ctx.runId)}`,
    }),
    expect: {
      status: 200,
      shape: t.object({ recipients: t.array(t.object({ metadata: t.object({}) })), total: t.integer }),
    },
    verify: async (observed, ctx) => {
      const none = await ctx.send({
        method: 'GET',
        path: `/v1/recipients?user_id=${(await ctx.user()).id}&metadata[conformance_run]=no-such-run`,
      });
      const out: string[] = [];
      if ((observed.body as { total: number }).total < 1)
        out.push('body.total: expected the run recipient, got 0');
      if ((none.body as { total?: unknown } | undefined)?.total !== 0)
        out.push('a non-matching filter: expected total 0, got another');
      return out;
    },
  },
  {
    id: 'recipients.create.metadata-limit',
    area: 'recipients',
    behaviour: 'Metadata over 50 entries is refused with 400',
    sources: [contract('§2.5, §8')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId, runId) => ({
      ...fixtureRecipient(userId, runId),
      metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
    })),
    expect: { status: 400, shape: t.object({}) },
  },
];
