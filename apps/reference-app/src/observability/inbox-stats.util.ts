import { WebhookInboxEntity } from '../webhooks/webhook-inbox.entity';
import { countInboxStates } from '../webhooks/inbox-state-counts.util';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import type { InboxStats } from './app-metrics.service';

const UNFINISHED = ['pending', 'failed', 'dead'] as const;

/**
 * The inbox's backlog, read from its table: entries per unfinished state (each count reads that
 * state's partial index) and the oldest entry of the states that still await
 * processing. Shared by the /metrics gauges and the readiness check, so both say the same thing.
 */
export async function readInboxStats(uow: PartnerUnitOfWork, now: Date = new Date()): Promise<InboxStats> {
  return uow.run(async (m) => {
    const counts = { pending: 0, failed: 0, dead: 0, ...(await countInboxStates(m, UNFINISHED)) };
    const oldestAgeSeconds = { pending: 0, failed: 0 };
    for (const state of ['pending', 'failed'] as const) {
      if (counts[state] === 0) continue;
      // Hydrated by TypeORM, so the timestamp reads the same on SQLite and PostgreSQL.
      const oldest = await m.findOne(WebhookInboxEntity, {
        select: { receivedAt: true },
        where: { state },
        order: { receivedAt: 'ASC' },
      });
      if (oldest) oldestAgeSeconds[state] = Math.max(0, (now.getTime() - oldest.receivedAt.getTime()) / 1000);
    }
    return { counts, oldestAgeSeconds };
  });
}
