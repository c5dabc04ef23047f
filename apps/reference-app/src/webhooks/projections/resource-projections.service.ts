import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { DepositEntity } from './deposit.entity';
import { PartnerUserEntity } from './partner-user.entity';
import { VirtualAccountEntity } from './virtual-account.entity';
import { insertIfAbsent } from '../../database/insert-if-absent.util';
import type { UnitOfWork } from '../../database/unit-of-work.service';
import { traceProjectionWrite } from '../../observability/app-tracing.util';
import { decideUserStatus } from './user-status.policy';

export interface UserObservation {
  eventName: string;
  userId: string;
  status?: string | null;
  metadata?: Record<string, unknown> | null;
  rejectionReasons?: unknown[] | null;
  livenessResult?: string | null;
}

export interface VirtualAccountObservation {
  virtualAccountId: string;
  userId?: string | null;
  status?: string | null;
  bank?: string | null;
  accountNumber?: string | null;
  metadata?: Record<string, unknown> | null;
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
 * Users, virtual accounts and deposits as projections of their events (issue: Persistence).
 * Each write runs inside the ambient transaction (the inbox's runProcessing): the row is created
 * if absent (insert-or-ignore, so two first events for one user never collide), then read under a
 * row lock on PostgreSQL (two events for one user are applied one after the other, neither
 * overwriting the other's fields), then saved. A replay converges to the same row.
 */
export class ResourceProjections {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async applyUser(obs: UserObservation): Promise<PartnerUserEntity> {
    return traceProjectionWrite('users', {}, () =>
      this.uow.transaction(async (m) => {
        const row = await this.locked(m, PartnerUserEntity, 'partner_users', 'user_id', obs.userId, {
          last_event_name: obs.eventName,
        });
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
        return m.save(PartnerUserEntity, row);
      }),
    );
  }

  async applyVirtualAccount(obs: VirtualAccountObservation): Promise<VirtualAccountEntity> {
    return traceProjectionWrite('virtual_accounts', {}, () =>
      this.uow.transaction(async (m) => {
        const row = await this.locked(
          m,
          VirtualAccountEntity,
          'virtual_accounts',
          'virtual_account_id',
          obs.virtualAccountId,
          {},
        );
        if (obs.userId) row.userId = obs.userId;
        if (obs.status) row.status = obs.status;
        if (obs.bank) row.bank = obs.bank;
        // Never store a full account number (DESIGN: logs and storage keep the last 4 only).
        // The placeholder PENDING-ACT-ACCOUNT is not a number (provider-facts).
        if (obs.accountNumber && /\d{4}$/.test(obs.accountNumber))
          row.accountNumberLast4 = obs.accountNumber.slice(-4);
        if (obs.metadata) row.metadata = JSON.stringify(obs.metadata);
        row.updatedAt = this.clock();
        return m.save(VirtualAccountEntity, row);
      }),
    );
  }

  async applyDeposit(obs: DepositObservation): Promise<DepositEntity> {
    return traceProjectionWrite('deposits', {}, () =>
      this.uow.transaction(async (m) => {
        const row = await this.locked(m, DepositEntity, 'deposits', 'deposit_id', obs.depositId, {
          kind: obs.kind,
        });
        for (const key of [
          'virtualAccountId',
          'userId',
          'amount',
          'currency',
          'status',
          'paymentRail',
          'senderName',
          'occurredAt',
        ] as const) {
          const value = obs[key];
          if (value !== undefined && value !== null) (row as unknown as Record<string, unknown>)[key] = value;
        }
        row.updatedAt = this.clock();
        return m.save(DepositEntity, row);
      }),
    );
  }

  /** Creates the row if absent, then reads it, locked for this transaction on PostgreSQL. */
  private async locked<T extends ObjectLiteral>(
    m: EntityManager,
    entity: EntityTarget<T>,
    table: string,
    key: string,
    id: string,
    required: Record<string, string>,
  ): Promise<T> {
    await insertIfAbsent(m, this.uow.kind, table, key, { [key]: id, ...required, updated_at: this.clock() });
    const qb = m.createQueryBuilder(entity, 'r').where(`r.${key} = :id`, { id });
    if (this.uow.kind === 'postgres') qb.setLock('pessimistic_write');
    const row = await qb.getOne();
    if (!row) throw new Error(`${table} ${id} vanished after insert`);
    return row;
  }
}
