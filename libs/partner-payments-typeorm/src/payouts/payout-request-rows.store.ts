import { In, Not, type EntityManager } from 'typeorm';
import { toStorableMessage } from '../database/inbox-text.util';
import { insertIfAbsent } from '../database/insert-if-absent.util';
import type { PartnerUnitOfWork } from '../database/unit-of-work.service';
import { differingField, requestColumns, type PartnerOutboxPayoutRequest } from './payout-body.util';
import { PartnerPayoutKeyReusedError } from './payout-outbox.errors';
import { PartnerPayoutRequestEntity, type PartnerPayoutRequestState } from './payout-request.entity';

const TABLE = 'partner_payout_requests';
const MAX_ERROR = 2000;

/** A stored message: bounded, and storable on PostgreSQL whatever partner text it quotes. */
const errorText = (message: string) => toStorableMessage(message.slice(0, MAX_ERROR));

/** The outbox's statements on partner_payout_requests, each through the unit of work. */
export class PayoutRequestRows {
  constructor(private readonly uow: PartnerUnitOfWork) {}

  /** Stores the key (committed before any partner call) or finds it; another request under it is refused. */
  reserve(
    key: string,
    request: PartnerOutboxPayoutRequest,
    fingerprint: string,
  ): Promise<PartnerPayoutRequestEntity> {
    return this.uow.transaction(async (m) => {
      const now = new Date();
      await insertIfAbsent(m, this.uow.kind, TABLE, 'idempotency_key', {
        idempotency_key: key,
        fingerprint,
        ...requestColumns(request),
        state: 'pending',
        payout_id: null,
        last_error: null,
        attempts: 0,
        next_attempt_at: null,
        created_at: now,
        updated_at: now,
      });
      const row = await m.findOneOrFail(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } });
      if (row.fingerprint !== fingerprint)
        throw new PartnerPayoutKeyReusedError(key, differingField(row, request));
      return row;
    });
  }

  /**
   * Inside the caller's transaction: the request is created, with the partner's payout id. False
   * when it was already: two sends of one key both answered (a retry beside the first call, or
   * beside the re-drive) store it once. PostgreSQL re-checks the state on the row it waited for.
   */
  async markCreated(m: EntityManager, key: string, payoutId: string): Promise<boolean> {
    const result = await m.update(
      PartnerPayoutRequestEntity,
      { idempotencyKey: key, state: Not('created') },
      { state: 'created', payoutId, lastError: null, nextAttemptAt: null, updatedAt: new Date() },
    );
    return result.affected === 1;
  }

  /** Moves a pending (or rejected) request to `state`; never one already created. True when this call moved it. */
  async settle(key: string, state: 'rejected' | 'needs_review', reason: string): Promise<boolean> {
    const result = await this.uow.run((m) =>
      m.update(
        PartnerPayoutRequestEntity,
        { idempotencyKey: key, state: In(['pending', 'rejected']) },
        { state, lastError: errorText(reason), nextAttemptAt: null, updatedAt: new Date() },
      ),
    );
    return result.affected === 1;
  }

  /**
   * A rejected request submitted again: pending once more before it is sent, so a crash while the
   * partner answers leaves it to the re-drive, and claimed for `holdMs` (its created_at is past the
   * grace already) so the re-drive does not send it beside the caller.
   */
  async reopen(key: string, holdMs: number): Promise<void> {
    const now = new Date();
    await this.uow.run((m) =>
      m.update(
        PartnerPayoutRequestEntity,
        { idempotencyKey: key, state: 'rejected' },
        { state: 'pending', nextAttemptAt: new Date(now.getTime() + holdMs), updatedAt: now },
      ),
    );
  }

  /** A failed re-send: due again at `next`, still pending. */
  async backOff(key: string, next: Date, reason: string): Promise<void> {
    await this.uow.run((m) =>
      m.update(
        PartnerPayoutRequestEntity,
        { idempotencyKey: key, state: 'pending' },
        { nextAttemptAt: next, lastError: errorText(reason), updatedAt: new Date() },
      ),
    );
  }

  /** Pending past the grace and due (never tried, or its backoff or claim expired), oldest first. */
  due(now: Date, graceMs: number, limit: number): Promise<PartnerPayoutRequestEntity[]> {
    const graceCutoff = new Date(now.getTime() - graceMs);
    return this.uow.run((m) =>
      m
        .createQueryBuilder(PartnerPayoutRequestEntity, 'r')
        .where('r.state = :pending', { pending: 'pending' })
        .andWhere('r.created_at <= :graceCutoff', { graceCutoff })
        .andWhere('(r.next_attempt_at IS NULL OR r.next_attempt_at <= :now)', { now })
        .orderBy('r.created_at', 'ASC')
        .addOrderBy('r.idempotency_key', 'ASC')
        .limit(limit)
        .getMany(),
    );
  }

  /**
   * Takes the row for one re-send: a conditional UPDATE only one replica can win (PostgreSQL
   * re-checks the condition on the row it waited for; SQLite has one writer). The claim holds for
   * `holdMs` from now: if this process dies mid-send, the row is due again after it.
   */
  async claim(key: string, holdMs: number): Promise<boolean> {
    const now = new Date();
    const result = await this.uow.run((m) =>
      m
        .createQueryBuilder()
        .update(PartnerPayoutRequestEntity)
        .set({
          attempts: () => 'attempts + 1',
          nextAttemptAt: new Date(now.getTime() + holdMs),
          updatedAt: now,
        })
        .where('idempotency_key = :key AND state = :pending', { key, pending: 'pending' })
        .andWhere('(next_attempt_at IS NULL OR next_attempt_at <= :now)', { now })
        .execute(),
    );
    return result.affected === 1;
  }

  /** The key of the request a payout is stored for, or null. */
  async holderOf(payoutId: string): Promise<string | null> {
    const row = await this.uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { payoutId } }));
    return row?.idempotencyKey ?? null;
  }

  find(key: string): Promise<PartnerPayoutRequestEntity | null> {
    return this.uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } }));
  }

  /** Requests per state (states without a request are absent). */
  counts(): Promise<Partial<Record<PartnerPayoutRequestState, number>>> {
    return this.uow.run(async (m) => {
      const rows: Array<{ state: PartnerPayoutRequestState; n: string | number }> = await m
        .createQueryBuilder(PartnerPayoutRequestEntity, 'r')
        .select('r.state', 'state')
        .addSelect('COUNT(*)', 'n')
        .groupBy('r.state')
        .getRawMany();
      return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
    });
  }

  needsReview(limit: number): Promise<PartnerPayoutRequestEntity[]> {
    return this.uow.run((m) =>
      m.find(PartnerPayoutRequestEntity, {
        where: { state: 'needs_review' },
        order: { createdAt: 'DESC', idempotencyKey: 'ASC' },
        take: limit,
      }),
    );
  }
}
