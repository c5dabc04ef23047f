/**
 * The deposit reconciliation's checkpoint, kept on its job-lock row (PartnerJobLockEntity.checkpoint,
 * JSON): where the list pass, the open-deposit reads and the COMPLETED-deposit recheck resume.
 */
import { PartnerJobLockEntity, type PartnerUnitOfWork } from '@partner-payments/typeorm';

export const DEPOSIT_RECONCILIATION_JOB = 'deposit-reconciliation';

/** Where the recheck of COMPLETED deposits stopped: the last one read, in its order. */
export interface RecheckCursor {
  updatedAt: string;
  depositId: string;
}

export interface Checkpoint {
  /** Newest created_at seen. */
  watermark: string | null;
  /** The COMPLETED-deposit recheck resumes after this one (null: from the most recently updated). */
  recheckCursor: RecheckCursor | null;
  /** On an oldest-first list: the last page that was full, where the next pass starts. */
  fullPages: number;
  /** The open-deposit reads resume after this deposit_id (null: from the first). */
  openCursor: string | null;
}

/** The stored checkpoint; an absent or unreadable one starts from the beginning. */
export async function readDepositCheckpoint(uow: PartnerUnitOfWork): Promise<Checkpoint> {
  const row = await uow.run((m) =>
    m.findOne(PartnerJobLockEntity, { where: { name: DEPOSIT_RECONCILIATION_JOB } }),
  );
  try {
    const parsed = JSON.parse(row?.checkpoint ?? 'null') as Partial<Checkpoint> | null;
    return {
      watermark: parsed?.watermark ?? null,
      fullPages: parsed?.fullPages ?? 0,
      recheckCursor: parsed?.recheckCursor ?? null,
      openCursor: typeof parsed?.openCursor === 'string' ? parsed.openCursor : null,
    };
  } catch {
    return { watermark: null, fullPages: 0, recheckCursor: null, openCursor: null };
  }
}

export async function writeDepositCheckpoint(uow: PartnerUnitOfWork, checkpoint: Checkpoint): Promise<void> {
  await uow.run((m) =>
    m.update(
      PartnerJobLockEntity,
      { name: DEPOSIT_RECONCILIATION_JOB },
      { checkpoint: JSON.stringify(checkpoint) },
    ),
  );
}
