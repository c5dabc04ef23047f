/**
 * Many payouts at once for reconciliation tests and benchmarks: created at the sandbox with
 * `seedPayouts` (walked silently, no webhook, as for an app that missed every event) and stored in
 * the app's database with the status the app last knew.
 */
import type { PayoutStepName, SandboxControl } from '@partner-payments/testing';
import { PayoutEntity } from '../../apps/reference-app/src/app-entities.constants';
import { SqlParams } from '@partner-payments/typeorm/sql';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';

export interface PayoutScenario {
  name: string;
  /** Share of the payouts, summing to 1 over a mix. */
  share: number;
  /** What happened at the partner. */
  partner: PayoutStepName[];
  /** What the app knows. */
  ours: { status: string; referenceNumber?: string; errorCode?: string };
  /** The status one pass must leave (statuses never move backwards; FAILED and CANCELLED are final). */
  expected: string;
}

/** Payouts in flight, most unchanged, some moved at the partner while no event reached the app. */
export const PAYOUT_MIX: PayoutScenario[] = [
  { name: 'unchanged', share: 0.4, partner: [], ours: { status: 'CREATED' }, expected: 'CREATED' },
  { name: 'pending', share: 0.15, partner: ['PENDING'], ours: { status: 'CREATED' }, expected: 'PENDING' },
  {
    name: 'processing',
    share: 0.12,
    partner: ['PENDING', 'PROCESSING'],
    ours: { status: 'PENDING' },
    expected: 'PROCESSING',
  },
  {
    name: 'hold released',
    share: 0.05,
    partner: ['PENDING', 'KYT_PENDING', 'PROCESSING'],
    ours: { status: 'KYT_PENDING' },
    expected: 'PROCESSING',
  },
  {
    name: 'in review',
    share: 0.05,
    partner: ['PENDING', 'IN_REVIEW'],
    ours: { status: 'PENDING' },
    expected: 'IN_REVIEW',
  },
  {
    name: 'completed',
    share: 0.1,
    partner: ['PENDING', 'PROCESSING', 'COMPLETED'],
    ours: { status: 'PROCESSING' },
    expected: 'COMPLETED',
  },
  {
    name: 'failed',
    share: 0.03,
    partner: ['PENDING', 'FAILED'],
    ours: { status: 'PENDING' },
    expected: 'FAILED',
  },
  {
    name: 'cancelled',
    share: 0.03,
    partner: ['CANCELLED'],
    ours: { status: 'CREATED' },
    expected: 'CANCELLED',
  },
  {
    name: 'returned after completion',
    share: 0.02,
    partner: ['PENDING', 'PROCESSING', 'COMPLETED', 'RETURNED'],
    ours: { status: 'COMPLETED', referenceNumber: 'REF-FROM-WEBHOOK' },
    expected: 'FAILED',
  },
  {
    name: 'app ahead of the list',
    share: 0.05,
    partner: ['PENDING'],
    ours: { status: 'PROCESSING' },
    expected: 'PROCESSING',
  },
];

export interface SeededPayouts {
  /** payout id -> scenario name. */
  scenarioOf: Map<string, string>;
  /** payout id -> the status one pass must leave. */
  expected: Map<string, string>;
}

export interface SeedTarget {
  virtualAccountId: string;
  recipientId: string;
  userId: string;
}

/** `total` payouts split by the mix at the sandbox; the same rows in every database of `dbs`. */
export async function seedPayouts(
  control: Pick<SandboxControl, 'seedPayouts'>,
  dbs: PartnerUnitOfWork[],
  target: SeedTarget,
  total: number,
  mix: PayoutScenario[] = PAYOUT_MIX,
): Promise<SeededPayouts> {
  const scenarioOf = new Map<string, string>();
  const expected = new Map<string, string>();
  const now = new Date();
  let left = total;
  for (const [i, scenario] of mix.entries()) {
    const count = i === mix.length - 1 ? left : Math.round(total * scenario.share);
    left -= count;
    if (count <= 0) continue;
    const { payoutIds } = await control.seedPayouts({
      virtualAccountId: target.virtualAccountId,
      recipientId: target.recipientId,
      count,
      steps: scenario.partner,
    });
    for (const payoutId of payoutIds) {
      scenarioOf.set(payoutId, scenario.name);
      expected.set(payoutId, scenario.expected);
    }
    for (const uow of dbs) await insertSeededRows(uow, payoutIds, scenario, target, now);
  }
  return { scenarioOf, expected };
}

/** The app's rows for payouts of one scenario, as the app last knew them. */
export async function insertSeededRows(
  uow: PartnerUnitOfWork,
  payoutIds: readonly string[],
  scenario: PayoutScenario,
  target: SeedTarget,
  now = new Date(),
): Promise<void> {
  // Raw multi-row INSERTs: TypeORM's insert of entity objects took minutes for 100,000 rows.
  const columns = [
    'payout_id',
    'status',
    'reference_number',
    'error_code',
    'virtual_account_id',
    'recipient_id',
    'user_id',
    'amount',
    'currency',
    'last_source',
    'created_at',
    'updated_at',
    'check_failures',
    'version',
  ];
  for (let at = 0; at < payoutIds.length; at += 500) {
    const p = new SqlParams(uow.kind);
    const values = payoutIds
      .slice(at, at + 500)
      .map(
        (payoutId) =>
          `(${[
            payoutId,
            scenario.ours.status,
            scenario.ours.referenceNumber ?? null,
            scenario.ours.errorCode ?? null,
            target.virtualAccountId,
            target.recipientId,
            target.userId,
            '1.00',
            'USD',
            'webhook',
            now,
            now,
            0,
            1,
          ]
            .map((v) => p.add(v))
            .join(', ')})`,
      );
    await uow.run((m) =>
      m.query(`INSERT INTO payouts (${columns.join(', ')}) VALUES ${values.join(', ')}`, p.values),
    );
  }
}

/** payout id -> stored status, for every payout of `ids`. */
export async function storedStatuses(
  uow: PartnerUnitOfWork,
  ids: Iterable<string>,
): Promise<Map<string, string>> {
  const wanted = new Set(ids);
  const rows = await uow.run((m) => m.find(PayoutEntity, { select: { payoutId: true, status: true } }));
  return new Map(rows.filter((r) => wanted.has(r.payoutId)).map((r) => [r.payoutId, r.status]));
}
