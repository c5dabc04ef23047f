import { AsyncLocalStorage } from 'node:async_hooks';
import { PayoutEntity } from './payout.entity';
import { insertIfAbsent } from '@partner-payments/typeorm/sql';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import { decidePayoutStatusChange, type PartnerPayoutStatusChange } from '@partner-payments/nestjs/models';
import { traceProjectionBatch, traceProjectionWrite } from '../observability/app-tracing.util';
import { writePayoutBatch } from './payout-batch-write.util';
import type { KnownRows, PayoutObservation, PayoutProjectionResult } from './payout-projection.types';

export type { PayoutObservation, PayoutProjectionResult } from './payout-projection.types';

const outcomeOf = (r: PayoutProjectionResult): string => r.outcome;

export class PayoutConcurrencyError extends Error {
  constructor(payoutId: string) {
    super(`payout ${payoutId}: gave up after repeated concurrent updates`);
  }
}

const DETAIL_FIELDS = [
  'referenceNumber',
  'errorCode',
  'reviewReason',
  'amount',
  'currency',
  'recipientId',
  'userId',
  'virtualAccountId',
  'idempotencyKey',
] as const;

/**
 * Applies observations to the payouts table: the status only moves per decidePayoutStatusChange,
 * details (reference number, error code, ...) fill in whenever they arrive. Every write is
 * `UPDATE ... WHERE version = :read` (optimistic locking): a writer that lost the race re-reads
 * and decides again, so concurrent webhook and reconciliation writes never overwrite each other.
 * Joins the ambient transaction (the inbox's processing) when there is one.
 */
export class PayoutProjection {
  private readonly knownRows = new AsyncLocalStorage<KnownRows>();

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly clock: () => Date = () => new Date(),
    private readonly maxAttempts = 5,
  ) {}

  /**
   * Runs `work` with rows the caller has just read (reconciliation claims a page of payouts in one
   * statement): `apply` inside it starts from the row in hand instead of reading it again, and
   * builds its answer without re-reading (a pass reads each payout's row once). Safe because
   * every write is `WHERE version = :read`: a row changed since it was read loses the race and is re-read as
   * usual. With `deferWrites`, `apply` writes nothing for those rows: `flushDeferred()`, called inside the
   * same scope and transaction, writes them all in one statement (one round trip per changed payout would be
   * most of a pass). `changed` gets the ids whose stored status the scope's writes moved, races decided: a
   * row in hand a webhook moved first may end unchanged (reconciliation counts its drift from this).
   */
  withKnownRows<T>(
    rows: readonly PayoutEntity[],
    work: () => Promise<T>,
    options: { deferWrites?: boolean; changed?: Set<string> } = {},
  ): Promise<T> {
    const known: KnownRows = {
      rows: new Map(rows.map((r) => [r.payoutId, r])),
      deferred: options.deferWrites ? new Map() : null,
      changed: options.changed ?? null,
    };
    return this.knownRows.run(known, work);
  }

  /** Writes what apply() deferred in this scope; a row changed since it was read is applied again the usual way. */
  async flushDeferred(): Promise<void> {
    const scope = this.knownRows.getStore();
    if (!scope?.deferred || scope.deferred.size === 0) return;
    const writes = [...scope.deferred.values()];
    scope.deferred.clear();
    const written = await traceProjectionBatch('payouts', writes.length, () =>
      this.uow.transaction((m) => writePayoutBatch(m, this.uow.kind, writes)),
    );
    for (const write of writes)
      if (!written.has(write.next.payoutId)) {
        // Lost the race: whether it changes anything is decided again against the current row.
        scope.changed?.delete(write.next.payoutId);
        await this.knownRows.run({ rows: new Map(), deferred: null, changed: scope.changed }, async () => {
          for (const obs of write.observations) await this.apply(obs);
        });
      }
  }

  /** Applies one observation (in a span `projection payouts`: the end of a webhook's trace). */
  async apply(obs: PayoutObservation): Promise<PayoutProjectionResult> {
    return traceProjectionWrite('payouts', { payout_id: obs.payoutId }, () => this.write(obs), outcomeOf);
  }

  private async write(obs: PayoutObservation): Promise<PayoutProjectionResult> {
    return this.uow.transaction(async (m) => {
      const known = this.knownRows.getStore();
      for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
        const now = this.clock();
        const hint = attempt === 0 ? known?.rows.get(obs.payoutId) : undefined;
        const row = hint ?? (await m.findOne(PayoutEntity, { where: { payoutId: obs.payoutId } }));
        if (!row) {
          const decision = decidePayoutStatusChange(null, obs.status);
          // An unplaceable first status is still stored: the row must exist for reconciliation.
          const inserted = await insertIfAbsent(m, this.uow.kind, 'payouts', 'payout_id', {
            payout_id: obs.payoutId,
            status: decision.next,
            previous_status: null,
            virtual_account_id: obs.virtualAccountId ?? null,
            recipient_id: obs.recipientId ?? null,
            user_id: obs.userId ?? null,
            amount: obs.amount ?? null,
            currency: obs.currency ?? null,
            idempotency_key: obs.idempotencyKey ?? null,
            reference_number: obs.referenceNumber ?? null,
            error_code: obs.errorCode ?? null,
            review_reason: obs.reviewReason ?? null,
            last_source: obs.source,
            created_at: now,
            updated_at: now,
            check_failures: 0,
            version: 1,
          });
          if (!inserted) continue; // someone else created it first: decide against their row
          const created = await m.findOneOrFail(PayoutEntity, { where: { payoutId: obs.payoutId } });
          return {
            outcome: 'created',
            reason: decision.reason,
            previousStatus: null,
            status: created.status,
            row: created,
          };
        }
        const decision = decidePayoutStatusChange(row.status, obs.status, {
          previousStatus: obs.previousStatus,
        });
        const patch: Partial<PayoutEntity> = {};
        for (const field of DETAIL_FIELDS) {
          const value = obs[field];
          if (value !== undefined && value !== null && value !== row[field]) patch[field] = value;
        }
        if (!decision.apply && Object.keys(patch).length === 0) {
          return {
            outcome: 'unchanged',
            reason: decision.reason,
            previousStatus: row.previousStatus,
            status: row.status,
            row,
          };
        }
        if (decision.apply) {
          patch.status = decision.next;
          patch.previousStatus = row.status;
        }
        if (hint && known?.deferred) return this.defer(known, obs, hint, patch, now, decision);
        const result = await m
          .createQueryBuilder()
          .update(PayoutEntity)
          .set({ ...patch, lastSource: obs.source, updatedAt: now, version: () => 'version + 1' })
          .where('payout_id = :id AND version = :version', { id: row.payoutId, version: row.version })
          .execute();
        if (result.affected !== 1) continue; // lost the race: re-read, decide again
        const updated = hint
          ? Object.assign(new PayoutEntity(), hint, patch, {
              lastSource: obs.source,
              updatedAt: now,
              version: hint.version + 1,
            })
          : await m.findOneOrFail(PayoutEntity, { where: { payoutId: obs.payoutId } });
        if (hint) known?.rows.set(obs.payoutId, updated);
        if (decision.apply) known?.changed?.add(obs.payoutId);
        return {
          outcome: decision.apply ? 'changed' : 'unchanged',
          reason: decision.reason,
          previousStatus: decision.apply ? row.status : row.previousStatus,
          status: updated.status,
          row: updated,
        };
      }
      throw new PayoutConcurrencyError(obs.payoutId);
    });
  }

  /** apply() for a known row under deferWrites: the write is recorded for flushDeferred, the answer built. */
  private defer(
    known: KnownRows,
    obs: PayoutObservation,
    row: PayoutEntity,
    patch: Partial<PayoutEntity>,
    now: Date,
    decision: PartnerPayoutStatusChange,
  ): PayoutProjectionResult {
    const next = Object.assign(new PayoutEntity(), row, patch, {
      lastSource: obs.source,
      updatedAt: now,
      version: row.version + 1,
    });
    const earlier = known.deferred!.get(obs.payoutId);
    known.deferred!.set(obs.payoutId, {
      readVersion: earlier?.readVersion ?? row.version,
      next,
      observations: [...(earlier?.observations ?? []), obs],
    });
    known.rows.set(obs.payoutId, next);
    if (decision.apply) known.changed?.add(obs.payoutId); // until flushDeferred finds it lost a race
    return {
      outcome: decision.apply ? 'changed' : 'unchanged',
      reason: decision.reason,
      previousStatus: decision.apply ? row.status : row.previousStatus,
      status: next.status,
      row: next,
    };
  }
}
