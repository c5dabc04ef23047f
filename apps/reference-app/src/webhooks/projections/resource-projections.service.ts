import type { EntityTarget, ObjectLiteral } from 'typeorm';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import { traceProjectionWrite } from '../../observability/app-tracing.util';
import { DepositEntity } from './deposit.entity';
import { PartnerUserEntity } from './partner-user.entity';
import { ProjectionTable } from './projection-table.util';
import { decideDepositStatus } from './deposit-status.policy';
import { decideUserStatus } from './user-status.policy';
import { VirtualAccountEntity } from './virtual-account.entity';

export interface UserObservation {
  eventName: string;
  userId: string;
  status?: string | null;
  metadata?: Record<string, unknown> | null;
  rejectionReasons?: unknown[] | null;
  livenessResult?: string | null;
  /** When the resource was in the state the event reports, when the event says (updated_at). */
  occurredAt?: Date | null;
}

export interface VirtualAccountObservation {
  virtualAccountId: string;
  userId?: string | null;
  status?: string | null;
  bank?: string | null;
  accountNumber?: string | null;
  metadata?: Record<string, unknown> | null;
  /** When the resource was in the state the event reports, when the event says (updated_at). */
  occurredAt?: Date | null;
}

export interface DepositObservation {
  depositId: string;
  kind: 'deposit' | 'microdeposit';
  virtualAccountId?: string | null;
  userId?: string | null;
  amount?: string | null;
  currency?: string | null;
  status?: string | null;
  paymentRail?: string | null;
  senderName?: string | null;
  occurredAt?: Date | null;
}

/**
 * Whether an event may change a row, and if so records its time on it. User statuses have no
 * order of their own (spec 3.3: "other transitions: not shown"; a verified user can be reviewed
 * again), so a late or replayed event could move a row back: an event carrying its time
 * (its updated_at or occurred_at: projection-handlers.service.ts) older than the newest one
 * applied changes nothing. An event without a time is applied as received (the inbox never applies
 * one event id twice). Deposits and payouts move only forward by their statuses
 * (deposit-status.policy.ts, decidePayoutStatusChange), whatever the order.
 */
export function advancesEventTime(
  row: { eventAt: Date | null },
  occurredAt: Date | null | undefined,
): boolean {
  if (!occurredAt) return true;
  if (row.eventAt && occurredAt.getTime() < row.eventAt.getTime()) return false;
  row.eventAt = occurredAt;
  return true;
}

/**
 * Users, virtual accounts and deposits as projections of their events (issue: Persistence).
 * Each write runs inside the ambient transaction (the inbox's unit of work), by
 * ProjectionTable.apply: a new row is inserted as the event makes it (one statement on
 * PostgreSQL); an existing one is read back under a row lock on PostgreSQL, changed and written
 * back (two first events for one user never collide; two events for one user are applied one
 * after the other, neither overwriting the other's fields). A replay converges to the same row.
 */
export class ResourceProjections {
  private readonly tables = new Map<EntityTarget<ObjectLiteral>, ProjectionTable<ObjectLiteral>>();

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async applyUser(obs: UserObservation): Promise<PartnerUserEntity> {
    return traceProjectionWrite('users', {}, () =>
      this.uow.transaction(async (m) => {
        const created = { userId: obs.userId, lastEventName: obs.eventName, updatedAt: this.clock() };
        return this.table(PartnerUserEntity).apply(m, created, (row) => {
          if (!advancesEventTime(row, obs.occurredAt)) return;
          const next = decideUserStatus(row.status, obs.status);
          if (next !== row.status) {
            row.previousStatus = row.status;
            row.status = next;
          }
          // spec 6.4.1: only user.created echoes metadata; never clear it from events that lack it.
          if (obs.metadata) row.metadata = JSON.stringify(obs.metadata);
          if (obs.rejectionReasons) row.rejectionReasons = JSON.stringify(obs.rejectionReasons);
          if (obs.livenessResult) row.livenessResult = obs.livenessResult;
          row.lastEventName = obs.eventName;
          row.updatedAt = this.clock();
        });
      }),
    );
  }

  async applyVirtualAccount(obs: VirtualAccountObservation): Promise<VirtualAccountEntity> {
    return traceProjectionWrite('virtual_accounts', {}, () =>
      this.uow.transaction(async (m) => {
        const created = { virtualAccountId: obs.virtualAccountId, updatedAt: this.clock() };
        return this.table(VirtualAccountEntity).apply(m, created, (row) => {
          if (!advancesEventTime(row, obs.occurredAt)) return;
          if (obs.userId) row.userId = obs.userId;
          if (obs.status) row.status = obs.status;
          if (obs.bank) row.bank = obs.bank;
          // Never store a full account number: logs and storage keep the last 4 only.
          // The placeholder PENDING-ACT-ACCOUNT is not a number (provider-facts).
          if (obs.accountNumber && /\d{4}$/.test(obs.accountNumber))
            row.accountNumberLast4 = obs.accountNumber.slice(-4);
          if (obs.metadata) row.metadata = JSON.stringify(obs.metadata);
          row.updatedAt = this.clock();
        });
      }),
    );
  }

  async applyDeposit(obs: DepositObservation): Promise<DepositEntity> {
    return traceProjectionWrite('deposits', {}, () =>
      this.uow.transaction(async (m) => {
        const created = { depositId: obs.depositId, kind: obs.kind, updatedAt: this.clock() };
        return this.table(DepositEntity).apply(m, created, (row) => {
          // The status only moves forward (deposit-status.policy.ts); the other fields fill in.
          row.status = decideDepositStatus(row.status ?? null, obs.status);
          for (const key of [
            'virtualAccountId',
            'userId',
            'amount',
            'currency',
            'paymentRail',
            'senderName',
            'occurredAt',
          ] as const) {
            const value = obs[key];
            if (value !== undefined && value !== null)
              (row as unknown as Record<string, unknown>)[key] = value;
          }
          row.updatedAt = this.clock();
        });
      }),
    );
  }

  /**
   * The row access of one entity: created if absent and read locked in one statement, written
   * back in one (these run once per inbox entry).
   */
  private table<T extends ObjectLiteral>(entity: EntityTarget<T>): ProjectionTable<T> {
    let table = this.tables.get(entity);
    if (!table) {
      table = new ProjectionTable(this.uow.dataSource, entity);
      this.tables.set(entity, table);
    }
    return table as ProjectionTable<T>;
  }
}
