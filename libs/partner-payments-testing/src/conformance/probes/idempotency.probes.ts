/**
 * Idempotency on every keyed POST (spec 4.7, 8; evidence §5 [D for-ai-agents] adds the liquidation
 * address): the same key and body replays the first answer and creates nothing; the same key with
 * another body is refused 409 IDEMPOTENCY_CONFLICT; no key is refused 400. The partner was observed
 * doing so on recipients [T3r DRIFT-34, 35, 36]; the kit expects the same on each keyed route.
 * (Recipients have their own probes; verifications are not de-duplicated [T3r DRIFT-25], see users.)
 */
import type { ConformanceProbe, KeyedCreate, ProbeContext, ProbeNeed } from '../probe.types';
import type { ProbeArea } from '../report.types';
import { t } from '../shape.util';
import { anyError, contract, evidence, typedError } from './probe-shapes.util';

interface KeyedRoute {
  /** Probe id prefix, e.g. `virtual-accounts` or `virtual-accounts.liquidation-address`. */
  prefix: string;
  area: ProbeArea;
  /** `POST /v1/virtual-accounts` */
  route: string;
  need: ProbeNeed;
  fixture: (ctx: ProbeContext) => Promise<KeyedCreate>;
  /** Where the answer carries the id, in order (a renamed id is the create probe's divergence). */
  idFields: readonly string[];
  /** The create's success status (a replay answers it again). */
  created: readonly number[];
  /** A valid body that differs from the first one. */
  otherBody: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Which probes to make: the users and payouts missing-key probes live beside their creates. */
  probes: readonly ('replay' | 'conflict' | 'missing-key')[];
  contractRef?: string;
}

const sourcesOf = (route: KeyedRoute, tag: string) =>
  route.contractRef
    ? [evidence(tag), contract(route.contractRef)]
    : [evidence(tag), evidence('[D for-ai-agents]')];

const SANDBOX_NOTE =
  'the partner was observed on recipients; the sandbox answers the same on every keyed route';

/** The fixture's request again, with `key` and `body` as given. */
const again = (made: KeyedCreate, body: Record<string, unknown>, key?: string) => ({
  method: 'POST' as const,
  path: made.path,
  body,
  ...(key ? { idempotencyKey: key } : {}),
  ...(made.version ? { version: made.version } : {}),
});

function keyedProbes(route: KeyedRoute): ConformanceProbe[] {
  const base = { area: route.area, writes: true, needs: [route.need] };
  const replay: ConformanceProbe = {
    ...base,
    id: `${route.prefix}.idempotent-replay`,
    behaviour: `${route.route} again with the same Idempotency-Key and body answers the first answer (the same id) and creates nothing`,
    sources: sourcesOf(route, '[T3r DRIFT-34]'),
    cleanup: 'nothing is created (a replay)',
    request: async (ctx) => {
      const made = await route.fixture(ctx);
      return again(made, made.body, made.idempotencyKey);
    },
    expect: { status: route.created, shape: t.object({}) },
    verify: async (observed, ctx) => {
      const first = (await route.fixture(ctx)).id;
      const body = observed.body as Record<string, unknown>;
      return route.idFields.some((f) => body[f] === first)
        ? []
        : [`body.${route.idFields[0]}: expected the first answer's id, got another`];
    },
    sandbox: SANDBOX_NOTE,
  };
  const conflict: ConformanceProbe = {
    ...base,
    id: `${route.prefix}.idempotency-conflict`,
    behaviour: `${route.route} with a used Idempotency-Key and another body answers 409 IDEMPOTENCY_CONFLICT`,
    sources: sourcesOf(route, '[T3r DRIFT-35]'),
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => {
      const made = await route.fixture(ctx);
      return again(made, route.otherBody(made.body), made.idempotencyKey);
    },
    expect: { status: 409, shape: typedError('IDEMPOTENCY_CONFLICT') },
    sandbox: SANDBOX_NOTE,
  };
  const missingKey: ConformanceProbe = {
    ...base,
    id: `${route.prefix}.create.missing-key`,
    behaviour: `${route.route} without an Idempotency-Key is refused with 400 naming it`,
    sources: sourcesOf(route, '[T3r DRIFT-36]'),
    // The first create's body: if the key were not required, the answer is the partner's duplicate rule.
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => {
      const made = await route.fixture(ctx);
      return again(made, made.body);
    },
    expect: { status: 400, shape: anyError },
    verify: (o) =>
      JSON.stringify(o.body).includes('dempotency')
        ? []
        : ['body: expected to name Idempotency-Key, does not'],
  };
  const made = { replay, conflict, 'missing-key': missingKey };
  return route.probes.map((p) => made[p]);
}

export const IDEMPOTENCY_PROBES: ConformanceProbe[] = [
  ...keyedProbes({
    prefix: 'users',
    area: 'users',
    route: 'POST /v1/users',
    need: 'user',
    fixture: (ctx) => ctx.user(),
    idFields: ['id', 'user_id'],
    created: [201, 202],
    otherBody: (b) => ({ ...b, first_name: 'Other' }),
    probes: ['replay'],
    contractRef: '§4.7, §8',
  }),
  ...keyedProbes({
    prefix: 'virtual-accounts',
    area: 'virtual-accounts',
    route: 'POST /v1/virtual-accounts',
    need: 'virtualAccount',
    fixture: (ctx) => ctx.virtualAccount(),
    idFields: ['virtual_account_id', 'id'],
    created: [201, 202],
    otherBody: (b) => ({ ...b, metadata: { ...(b.metadata as object), conformance_other: 'yes' } }),
    probes: ['replay', 'conflict', 'missing-key'],
    contractRef: '§4.7, §8',
  }),
  ...keyedProbes({
    prefix: 'virtual-accounts.liquidation-address',
    area: 'virtual-accounts',
    route: 'POST /v1/virtual-accounts/{id}/liquidation-address',
    need: 'liquidationAddress',
    fixture: (ctx) => ctx.liquidationAddress(),
    idFields: ['id', 'liquidation_address_id'],
    // evidence open question 4: the create's status is not shown.
    created: [200, 201],
    otherBody: (b) => ({ ...b, token: b.token === 'USDT' ? 'USDC' : 'USDT' }),
    probes: ['replay', 'conflict', 'missing-key'],
  }),
  ...keyedProbes({
    prefix: 'payouts',
    area: 'payouts',
    route: 'POST /v1/virtual-accounts/{id}/payout',
    need: 'payout',
    fixture: (ctx) => ctx.payout(),
    idFields: ['id', 'payout_id'],
    created: [201, 202],
    otherBody: (b) => ({ ...b, amount: '11.00' }),
    probes: ['replay', 'conflict'],
    contractRef: '§4.7, §8',
  }),
];
