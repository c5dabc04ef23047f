/**
 * Virtual account lifecycle (evidence §5): lists, the status vocabulary by version, balance only
 * once active, and the liquidation-address create.
 */
import type { ConformanceProbe, ProbeContext, ProbeRequest } from '../../probe.types';
import { t } from '../../shape.util';
import {
  limitTooLargeProbe,
  anyError,
  contract,
  evidence,
  offsetPagination,
  onRunAccount,
} from '../probe-shapes.util';

/**
 * evidence §5 [D state-machines][T1 REVISION-DOCS §2.3]: the status words depend on the version;
 * 2026-06-01 has pending, activating, active, failed, deactivated (+ frozen).
 */
const STATUS_2026_04_14 = ['rfi', 'approved', 'declined', 'deactivated', 'frozen'];

/** GET the run's new virtual account under `version`. */
const newAccountAt =
  (version: string) =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => ({
    method: 'GET',
    path: `/v1/virtual-accounts/${(await ctx.newVirtualAccount()).id}`,
    version,
  });

export const VA_FUNDS_PROBES: ConformanceProbe[] = [
  {
    id: 'virtual-accounts.list',
    area: 'virtual-accounts',
    behaviour:
      'GET /v1/virtual-accounts answers { data, pagination: { total, limit, offset, has_more } } like users; provider and currency are null in the list',
    sources: [evidence('[T2s Common.cs]'), evidence('[D known-limitations]')],
    writes: false,
    request: { method: 'GET', path: '/v1/virtual-accounts?limit=1&offset=0' },
    expect: {
      status: 200,
      shape: t.object({
        data: t.array(
          t.object({ virtual_account_id: t.string, status: t.string, provider: t.null, currency: t.null }),
        ),
        pagination: offsetPagination,
      }),
    },
  },
  {
    id: 'virtual-accounts.list.offset',
    area: 'virtual-accounts',
    behaviour:
      'GET /v1/virtual-accounts reads offset: ?limit=1&offset=1 answers pagination.offset 1 (the client walks the list by offset and stops if a page is not the one asked for)',
    sources: [evidence('[T2s Common.cs]')],
    writes: false,
    request: { method: 'GET', path: '/v1/virtual-accounts?limit=1&offset=1' },
    expect: {
      status: 200,
      shape: t.object({
        data: t.array(t.object({ virtual_account_id: t.string })),
        pagination: offsetPagination,
      }),
    },
    verify: (o) => {
      const offset = (o.body as { pagination?: { offset?: unknown } }).pagination?.offset;
      return offset === 1
        ? []
        : [`pagination.offset: expected 1 (the offset sent), got ${JSON.stringify(offset)}`];
    },
  },
  {
    id: 'virtual-accounts.status-2026-04-14',
    area: 'virtual-accounts',
    behaviour:
      'On 2026-04-14 a virtual account status is one of rfi, approved, declined, deactivated (+ frozen)',
    sources: [evidence('[D state-machines]'), evidence('[T1 REVISION-DOCS §2.3]')],
    writes: true,
    needs: ['newVirtualAccount'],
    request: newAccountAt('2026-04-14'),
    expect: {
      status: 200,
      shape: t.object({ virtual_account_id: t.string, status: t.enum(...STATUS_2026_04_14) }),
    },
  },
  {
    id: 'virtual-accounts.status-2026-06-01',
    area: 'virtual-accounts',
    behaviour:
      'On 2026-06-01 a new virtual account is pending or activating (then active, failed, deactivated, frozen)',
    sources: [evidence('[D state-machines]'), evidence('[T1 REVISION-DOCS §2.3]')],
    writes: true,
    needs: ['newVirtualAccount'],
    request: newAccountAt('2026-06-01'),
    expect: { status: 200, shape: t.object({ status: t.enum('pending', 'activating') }) },
  },
  {
    id: 'virtual-accounts.balance-activating',
    area: 'virtual-accounts',
    behaviour: 'GET .../balance of a virtual account that is not active yet answers 400',
    sources: [evidence('[D known-limitations]'), evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['newVirtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.newVirtualAccount()).id}/balance`,
    }),
    expect: { status: 400, shape: anyError },
  },
  {
    id: 'virtual-accounts.balance',
    area: 'virtual-accounts',
    behaviour: 'GET .../balance of an active virtual account answers 200 with available_balance',
    sources: [evidence('[D known-limitations]'), evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['activeVirtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.activeVirtualAccount()).id}/balance`,
    }),
    expect: { status: 200, shape: t.object({ available_balance: t.oneOf(t.string, t.number) }) },
  },
  limitTooLargeProbe('virtual-accounts', '/v1/virtual-accounts'),
  {
    id: 'virtual-accounts.liquidation-address.create',
    area: 'virtual-accounts',
    behaviour:
      'POST .../liquidation-address with an Idempotency-Key and X-Api-Version takes { network, token, recipient_id } and creates an address the list then shows',
    sources: [evidence('[T2]'), evidence('[D for-ai-agents]'), contract('§4.6')],
    writes: true,
    needs: ['virtualAccount', 'payee'],
    creates: 'liquidation_address',
    provides: 'liquidationAddress',
    cleanup: 'not deletable: no DELETE route is documented',
    request: async (ctx) =>
      onRunAccount(
        '/liquidation-address',
        {
          idempotencyKey: 'fresh',
          version: '2026-04-14',
          body: { network: 'solana', token: 'USDC', recipient_id: (await ctx.payee()).id },
        },
        'POST',
      )(ctx),
    // evidence open question 4: the answer's status and body are not shown.
    expect: { status: [200, 201], shape: t.object({}) },
    verify: async (_o, ctx) => {
      const list = await ctx.send(await onRunAccount('/liquidation-address', { version: '2026-04-14' })(ctx));
      const rows = Array.isArray(list.body) ? list.body : [list.body].filter(Boolean);
      return rows.length > 0 ? [] : ['the list: expected the new address, it is empty'];
    },
    sandbox:
      'answers 201 with the created entry as the list shows it (`id`, `address`, `network`, `token`, ...)',
  },
];
