import type { PartnerUnitOfWork } from '../database/unit-of-work.service';
import { countInboxStates } from './inbox-state-counts.util';
import { PartnerWebhookInboxEntity } from './webhook-inbox.entity';

/** The unfinished entries: how many per state, and how long the oldest awaiting processing has waited. */
export interface PartnerInboxBacklog {
  counts: { pending: number; failed: number; dead: number };
  /** Age of the oldest pending and the oldest failed entry, in seconds; 0 when there is none. */
  oldestAgeSeconds: { pending: number; failed: number };
}

const UNFINISHED = ['pending', 'failed', 'dead'] as const;

/**
 * The inbox's backlog, read from its table: entries per unfinished state (each count reads that
 * state's partial index) and the oldest entry of the states that still await processing.
 */
export function readInboxBacklog(
  uow: PartnerUnitOfWork,
  now: Date = new Date(),
): Promise<PartnerInboxBacklog> {
  return uow.run(async (m) => {
    const counts = { pending: 0, failed: 0, dead: 0, ...(await countInboxStates(m, UNFINISHED)) };
    const oldestAgeSeconds = { pending: 0, failed: 0 };
    for (const state of ['pending', 'failed'] as const) {
      if (counts[state] === 0) continue;
      // Hydrated by TypeORM, so the timestamp reads the same on SQLite and PostgreSQL.
      const oldest = await m.findOne(PartnerWebhookInboxEntity, {
        select: { receivedAt: true },
        where: { state },
        order: { receivedAt: 'ASC' },
      });
      if (oldest) oldestAgeSeconds[state] = Math.max(0, (now.getTime() - oldest.receivedAt.getTime()) / 1000);
    }
    return { counts, oldestAgeSeconds };
  });
}
