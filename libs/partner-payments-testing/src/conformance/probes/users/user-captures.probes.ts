/** Users as the partner's raw captures and a second tenant's log show them (evidence §11 N16-N21, C3, C4). */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe, Observation, ProbeContext } from '../../probe.types';
import { fixtureUser } from '../../probe-bodies.util';
import { safeValue, t } from '../../shape.util';
import { evidence, flatError, namesPath, postUser, zodError } from '../probe-shapes.util';

type Obj = Record<string, unknown>;
const bodyOf = (o: Observation): Obj => (o.body ?? {}) as Obj;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** N16: what a caller may not set; the partner drops or recomputes each and still answers 201. */
const serverControlled = (chosenId: string): Obj => ({
  id: chosenId,
  verification_status: 'APPROVED',
  eligible_products: [],
  missing_fields: {},
  verification_triggered: false,
  client_id: randomUUID(),
  is_admin: true,
  role: 'admin',
  fee_override: '0',
  verified_at: '2026-01-01T00:00:00Z',
});
const chosenIds = new Map<string, string>();

/** A business with only its name and country: both products still miss fields (C4). */
const thinBusiness = (runId: string): Obj => ({
  type: 'business',
  business_legal_name: 'Conformance Probe LLC',
  email: 'conformance.business@example.com',
  address_country: 'USA',
  metadata: { conformance_run: runId },
});

export const USER_CAPTURE_PROBES: ConformanceProbe[] = [
  {
    id: 'users.create.server-fields-dropped',
    area: 'users',
    behaviour:
      'POST /v1/users drops server-controlled and unknown keys (id, verification_status, is_admin, role, ...) and answers 201 with its own values',
    sources: [evidence('§11 N16 [T3raw security/mass-assignment-user-create]')],
    writes: true,
    creates: 'user',
    cleanup: 'none possible (no DELETE for users); tagged metadata.conformance_run',
    request: (ctx) => {
      const chosen = randomUUID();
      chosenIds.set(ctx.runId, chosen);
      return postUser(serverControlled(chosen))(ctx);
    },
    expect: {
      status: 201,
      shape: t.object({ status: t.enum('CREATED'), verification_status: t.string }, [
        'client_id',
        'is_admin',
        'role',
        'fee_override',
        'verified_at',
      ]),
    },
    verify: (o, ctx) => {
      const b = bodyOf(o);
      const out: string[] = [];
      // The id's own name is users.create's concern: whichever it is, it must not be the one sent.
      if ((b.id ?? b.user_id) === chosenIds.get(ctx.runId))
        out.push('body.id: expected a server id, got the one sent');
      if (String(b.verification_status).toUpperCase() === 'APPROVED')
        out.push('body.verification_status: expected the server value, got the APPROVED sent');
      return out;
    },
  },
  {
    id: 'users.create.verification-mode-enum',
    area: 'users',
    behaviour: "POST /v1/users takes verification_mode automatic|verification_link: 'manual' answers 400",
    sources: [evidence('§11 N17 [T3raw security/mass-assignment-user-create/02-enum-input-results.json]')],
    writes: true,
    cleanup: 'nothing is created (refused)',
    request: postUser({ verification_mode: 'manual' }),
    expect: { status: 400, shape: zodError },
    verify: namesPath('verification_mode'),
  },
  {
    id: 'users.create.verification-link',
    area: 'users',
    behaviour:
      'POST /v1/users with verification_mode verification_link answers 201 with an https verification_link in the flat body',
    sources: [evidence('§11 N18 [T4 log §4]')],
    writes: true,
    creates: 'user',
    cleanup: 'none possible (no DELETE for users); tagged metadata.conformance_run',
    request: postUser({ verification_mode: 'verification_link' }),
    expect: { status: 201, shape: t.object({ verification_link: t.string }) },
    verify: (o) =>
      /^https:\/\//.test(String(bodyOf(o).verification_link))
        ? []
        : ['body.verification_link: expected an https URL, got another value'],
    sandbox: 'an https link on a .invalid host (nothing to open)',
  },
  {
    id: 'users.create.business-legal-name-required',
    area: 'users',
    behaviour: 'A business without business_legal_name answers 400 Zod "Required" on business_legal_name',
    sources: [evidence('§11 N19 [T4 log §2]')],
    writes: true,
    cleanup: 'nothing is created (refused)',
    request: (ctx) => ({
      method: 'POST',
      path: '/v1/users',
      idempotencyKey: 'fresh',
      body: { ...thinBusiness(ctx.runId), business_legal_name: undefined },
    }),
    expect: { status: 400, shape: zodError },
    verify: namesPath('business_legal_name'),
  },
  {
    id: 'users.create.key-after-failure',
    area: 'users',
    behaviour:
      'A key first used by a create that failed with 400, reused with another body, answers 400 { code: validation_error, message: "Failed to store idempotency key" }',
    sources: [evidence('§11 N20 [T4 log §3]')],
    knownConflict: 'the readme docs promised 409 idempotency_key_reused [T3ref §2.4]; one observation',
    writes: true,
    cleanup: 'nothing is created (refused twice)',
    request: async (ctx: ProbeContext) => {
      const key = randomUUID();
      await ctx.send({
        method: 'POST',
        path: '/v1/users',
        idempotencyKey: key,
        body: { ...fixtureUser(ctx.runId), verification_mode: 'manual' },
      });
      return { method: 'POST', path: '/v1/users', idempotencyKey: key, body: fixtureUser(ctx.runId) };
    },
    expect: { status: 400, shape: flatError('validation_error') },
    verify: (o) =>
      bodyOf(o).message === 'Failed to store idempotency key'
        ? []
        : [`body.message: expected "Failed to store idempotency key", got ${safeValue(bodyOf(o).message)}`],
  },
  {
    id: 'users.read-shape',
    area: 'users',
    behaviour:
      'A user answers ISO created_at/updated_at and an address object with street_line_2 ("" when empty); eligible_products are keyed by product_code (product_id is opaque)',
    sources: [evidence('§11 N21, C3 [T3raw users/15, 23]')],
    knownConflict: 'the kira-sdk (Jul) saw product_id equal to product_code [T2s Users.cs]',
    writes: true,
    needs: ['user'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/users/${(await ctx.user()).id}` }),
    expect: {
      status: 200,
      shape: t.object({
        created_at: t.string,
        updated_at: t.string,
        residential_address: t.object({ street_line_2: t.string }),
        eligible_products: t.array(t.object({ product_id: t.string, product_code: t.string })),
      }),
    },
    verify: (o) => {
      const b = bodyOf(o);
      const out: string[] = [];
      for (const f of ['created_at', 'updated_at'])
        if (!ISO.test(String(b[f]))) out.push(`body.${f}: expected ISO 8601 with Z, got ${safeValue(b[f])}`);
      const codes = (b.eligible_products as Obj[]).map((p) => p.product_code);
      if (!codes.includes('usa-virtual-accounts'))
        out.push('body.eligible_products: expected a product_code usa-virtual-accounts, none');
      return out;
    },
  },
  {
    id: 'users.create.missing-fields-by-code',
    area: 'users',
    behaviour:
      'POST /v1/users for a user still missing fields answers missing_fields keyed by product code, without general',
    sources: [evidence('§11 C4 [T3raw users/03]')],
    knownConflict: 'the kira-sdk (Jul) saw no top-level missing_fields on create [T2s Users.cs]',
    writes: true,
    creates: 'user',
    cleanup: 'none possible (no DELETE for users); tagged metadata.conformance_run',
    request: (ctx) => ({
      method: 'POST',
      path: '/v1/users',
      idempotencyKey: 'fresh',
      body: thinBusiness(ctx.runId),
    }),
    expect: {
      status: 201,
      shape: t.object({
        missing_fields: t.object({ 'usa-virtual-accounts': t.array(t.string) }, ['general']),
      }),
    },
  },
];
