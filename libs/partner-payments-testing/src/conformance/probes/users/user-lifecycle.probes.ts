/** User lifecycle corners: automatic rejection, liveness links, field types (evidence §3, spec 3.3, 4.7). */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe, ProbeContext, ProbeRequest } from '../../probe.types';
import { fixtureUser } from '../../probe-bodies.util';
import { t } from '../../shape.util';
import { contract, evidence, flatError, namesPath, zodError } from '../probe-shapes.util';

/** Creates a user from the run fixture minus `drop`; answers its id (named in the report). */
async function createUserWithout(ctx: ProbeContext, probe: string, drop: string[]): Promise<string> {
  const body = fixtureUser(ctx.runId);
  for (const key of drop) delete body[key];
  const answer = await ctx.send({ method: 'POST', path: '/v1/users', idempotencyKey: 'fresh', body });
  const record = (answer.body ?? {}) as Record<string, unknown>;
  const id = record.id ?? record.user_id;
  if (answer.status !== 201 || typeof id !== 'string')
    throw new Error(`POST /v1/users answered ${answer.status}`);
  ctx.created('user', id, probe);
  return id;
}

/** GETs the user until its status is `until` (or settleMs passes); answers the final GET. */
async function pollUser(ctx: ProbeContext, id: string, until: string): Promise<ProbeRequest> {
  const request: ProbeRequest = { method: 'GET', path: `/v1/users/${id}` };
  const deadline = Date.now() + ctx.settleMs;
  while (Date.now() < deadline) {
    const status = ((await ctx.send(request)).body as { status?: unknown } | undefined)?.status;
    if (status === until) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return request;
}

const livenessPath = async (ctx: ProbeContext) => `/v1/users/${(await ctx.user()).id}/liveness-link`;

export const USER_LIFECYCLE_PROBES: ConformanceProbe[] = [
  {
    id: 'users.rejected-without-source-of-funds',
    area: 'users',
    behaviour:
      'A user without source_of_funds is rejected within seconds: REJECTED (terminal), the reason never on GET',
    sources: [evidence('[D known-limitations]'), contract('§3.3')],
    writes: true,
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: async (ctx) =>
      pollUser(
        ctx,
        await createUserWithout(ctx, 'users.rejected-without-source-of-funds', ['source_of_funds']),
        'REJECTED',
      ),
    expect: { status: 200, shape: t.object({ status: t.enum('REJECTED') }, ['reasons', 'rejection_reason']) },
  },
  {
    id: 'users.liveness-link.not-triggered',
    area: 'users',
    behaviour:
      "POST /v1/users/{id}/liveness-link answers 422 while the user's verification has not been triggered",
    sources: [evidence('[T1 KiraApiClient]')],
    writes: true,
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: async (ctx) => {
      const id = await createUserWithout(ctx, 'users.liveness-link.not-triggered', [
        'occupation',
        'account_purpose',
      ]);
      return { method: 'POST', path: `/v1/users/${id}/liveness-link`, body: {} };
    },
    expect: { status: 422, shape: t.object({ message: t.string }) },
  },
  {
    id: 'users.liveness-link.repeat',
    area: 'users',
    behaviour: 'A repeated liveness-link call (same redirect) answers the same link, valid 7 days',
    sources: [evidence('[T1 KiraApiClient]'), contract('§4.7')],
    writes: true,
    needs: ['user'],
    cleanup: 'links expire after 7 days',
    request: async (ctx) => {
      await ctx.send({ method: 'POST', path: await livenessPath(ctx), body: {} });
      return { method: 'POST', path: await livenessPath(ctx), body: {} };
    },
    expect: { status: [200, 201], shape: t.object({}) },
    verify: async (observed, ctx) => {
      const again = await ctx.send({ method: 'POST', path: await livenessPath(ctx), body: {} });
      return JSON.stringify(again.body) === JSON.stringify(observed.body)
        ? []
        : ['body: expected the same link on a repeat call, got another'];
    },
    sandbox:
      "the answer's envelope is not shown in the evidence: ours is `{ user_id, links: [{ person_id, person_reference_id, liveness_url, expires_at }] }`",
  },
  {
    id: 'users.business-industry-array',
    area: 'users',
    behaviour: 'business_industry is an array of NAICS values: a string answers 400 "Expected array"',
    sources: [evidence('[T3r DRIFT-19]')],
    writes: true,
    cleanup: 'nothing is created (refused)',
    request: (ctx) => ({
      method: 'POST',
      path: '/v1/users',
      idempotencyKey: 'fresh',
      body: {
        type: 'business',
        business_legal_name: 'Conformance Probe LLC',
        email: 'conformance.business@example.com',
        business_industry: 'software_publishers',
        metadata: { conformance_run: ctx.runId },
      },
    }),
    expect: { status: 400, shape: zodError },
    verify: namesPath('business_industry'),
  },
  {
    id: 'users.liveness-link.unknown-user',
    area: 'users',
    behaviour: 'The liveness-link call for an unknown user answers 404',
    sources: [evidence('[T2s README]')],
    writes: false,
    request: () => ({ method: 'POST', path: `/v1/users/${randomUUID()}/liveness-link`, body: {} }),
    expect: { status: 404, shape: flatError() },
  },
];
