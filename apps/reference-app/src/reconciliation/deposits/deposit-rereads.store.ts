/**
 * Which stored deposits the deposit reconciliation reads again from the partner, one by one: the
 * open ones (a hold released long after arrival) and the COMPLETED ones still in the return window.
 * Only rows readable by GET: a virtual account known and a real deposit_id (not an event-derived
 * key). Both rotate: a pass resumes after the last row the previous one read, then wraps.
 */
import type { PartnerUnitOfWork } from '@partner-payments/typeorm';
import {
  And,
  Between,
  Equal,
  In,
  IsNull,
  LessThanOrEqual,
  Like,
  MoreThan,
  MoreThanOrEqual,
  Not,
} from 'typeorm';
import { DepositEntity } from '../../webhooks/projections/deposit.entity';
import { DEPOSIT_RECEIVED } from '../../webhooks/projections/deposit-status.policy';
import type { RecheckCursor } from './deposit-checkpoint.store';

export type DepositRow = Pick<DepositEntity, 'depositId' | 'virtualAccountId' | 'updatedAt'>;

const REAL_ID = Not(Like('event:%'));

/** Up to `limit` open deposits not in `seen`, in deposit_id order after `after`, then from the first. */
export async function pickOpenDeposits(
  uow: PartnerUnitOfWork,
  seen: ReadonlySet<string>,
  after: string | null,
  limit: number,
): Promise<DepositRow[]> {
  const open = {
    status: In(['PENDING', 'KYT_PENDING', 'KYT_REJECTED', DEPOSIT_RECEIVED]),
    virtualAccountId: Not(IsNull()),
  };
  const picked: DepositRow[] = [];
  /** Picks unseen rows with ids in (from, to], chunk by chunk, until the limit. */
  const pick = async (from: string | null, to: string | null): Promise<void> => {
    for (let cursor = from; picked.length < limit;) {
      const lower = cursor === null ? REAL_ID : And(REAL_ID, MoreThan(cursor));
      const rows: DepositRow[] = await uow.run((m) =>
        m.find(DepositEntity, {
          select: { depositId: true, virtualAccountId: true, updatedAt: true },
          where: { ...open, depositId: to === null ? lower : And(lower, LessThanOrEqual(to)) },
          order: { depositId: 'ASC' },
          take: limit,
        }),
      );
      for (const row of rows) if (picked.length < limit && !seen.has(row.depositId)) picked.push(row);
      if (rows.length < limit) return;
      cursor = rows[rows.length - 1].depositId;
    }
  };
  await pick(after, null);
  // Wrapped: the ones before the cursor, up to it.
  if (after !== null) await pick(null, after);
  return picked;
}

/**
 * Up to `limit` COMPLETED deposits updated since `since` and not in `seen`, in (updated_at DESC,
 * deposit_id ASC) order after `after`, then from the start again; `total`: how many the window holds.
 */
export async function pickCompletedDeposits(
  uow: PartnerUnitOfWork,
  seen: ReadonlySet<string>,
  after: RecheckCursor | null,
  since: Date,
  limit: number,
): Promise<{ picked: DepositRow[]; total: number }> {
  const base = { status: 'COMPLETED', virtualAccountId: Not(IsNull()), depositId: REAL_ID };
  const read = (where: object | object[], take: number): Promise<DepositRow[]> =>
    uow.run((m) =>
      m.find(DepositEntity, {
        select: { depositId: true, virtualAccountId: true, updatedAt: true },
        where,
        order: { updatedAt: 'DESC', depositId: 'ASC' },
        take,
      }),
    );
  const total = await uow.run((m) =>
    m.count(DepositEntity, { where: { ...base, updatedAt: MoreThanOrEqual(since) } }),
  );
  const picked: DepositRow[] = [];
  const pickedIds = new Set<string>();
  const take = (rows: DepositRow[]) => {
    for (const row of rows) {
      if (picked.length >= limit) return;
      if (seen.has(row.depositId) || pickedIds.has(row.depositId)) continue;
      picked.push(row);
      pickedIds.add(row.depositId);
    }
  };
  if (after) {
    const at = new Date(after.updatedAt);
    take(
      await read(
        [
          { ...base, updatedAt: Between(since, new Date(at.getTime() - 1)) },
          { ...base, updatedAt: Equal(at), depositId: And(REAL_ID, MoreThan(after.depositId)) },
        ],
        limit + seen.size,
      ),
    );
  }
  if (picked.length < limit)
    take(await read({ ...base, updatedAt: MoreThanOrEqual(since) }, limit + seen.size + picked.length));
  return { picked, total };
}
