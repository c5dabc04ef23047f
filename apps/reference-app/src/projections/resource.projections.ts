import { DepositEntity, PartnerUserEntity, VirtualAccountEntity } from '../database/entities';
import type { UnitOfWork } from '../database/unit-of-work';
import { decideUserStatus } from './user-status.transition';

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
 * Each write reads then saves inside the ambient transaction (the inbox's runProcessing), so a
 * replay of the same event converges to the same row.
 */
export class ResourceProjections {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async applyUser(obs: UserObservation): Promise<PartnerUserEntity> {
    return this.uow.transaction(async (m) => {
      const row = (await m.findOne(PartnerUserEntity, { where: { userId: obs.userId } })) ?? m.create(PartnerUserEntity, { userId: obs.userId, status: null, previousStatus: null, rejectionReasons: null, livenessResult: null, metadata: null });
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
    });
  }

  async applyVirtualAccount(obs: VirtualAccountObservation): Promise<VirtualAccountEntity> {
    return this.uow.transaction(async (m) => {
      const row = (await m.findOne(VirtualAccountEntity, { where: { virtualAccountId: obs.virtualAccountId } })) ?? m.create(VirtualAccountEntity, { virtualAccountId: obs.virtualAccountId, userId: null, status: null, bank: null, accountNumberLast4: null, metadata: null });
      if (obs.userId) row.userId = obs.userId;
      if (obs.status) row.status = obs.status;
      if (obs.bank) row.bank = obs.bank;
      // Never store a full account number (DESIGN: logs and storage keep the last 4 only).
      // The placeholder PENDING-ACT-ACCOUNT is not a number (provider-facts).
      if (obs.accountNumber && /\d{4}$/.test(obs.accountNumber)) row.accountNumberLast4 = obs.accountNumber.slice(-4);
      if (obs.metadata) row.metadata = JSON.stringify(obs.metadata);
      row.updatedAt = this.clock();
      return m.save(VirtualAccountEntity, row);
    });
  }

  async applyDeposit(obs: DepositObservation): Promise<DepositEntity> {
    return this.uow.transaction(async (m) => {
      const row = (await m.findOne(DepositEntity, { where: { depositId: obs.depositId } })) ?? m.create(DepositEntity, { depositId: obs.depositId, kind: obs.kind, virtualAccountId: null, userId: null, amount: null, currency: null, status: null, paymentRail: null, senderName: null, occurredAt: null });
      for (const key of ['virtualAccountId', 'userId', 'amount', 'currency', 'status', 'paymentRail', 'senderName', 'occurredAt'] as const) {
        const value = obs[key];
        if (value !== undefined && value !== null) (row as unknown as Record<string, unknown>)[key] = value;
      }
      row.updatedAt = this.clock();
      return m.save(DepositEntity, row);
    });
  }
}
