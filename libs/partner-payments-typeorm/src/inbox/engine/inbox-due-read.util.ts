import type { InboxEntry } from '@partner-payments/nestjs/inbox';
import { Brackets } from 'typeorm';
import { fromStoredText } from '../../database/inbox-text.util';
import type { PartnerUnitOfWork } from '../../database/unit-of-work.service';
import type { InboxStoredRow } from '../inbox-sql-driver.store';
import { PartnerWebhookInboxEntity } from '../webhook-inbox.entity';

export interface InboxDueRead {
  now: Date;
  minAgeMs?: number;
  limit?: number;
}

/**
 * PartnerTypeOrmInboxStore.pending: never processed (and old enough), or failed and due; oldest
 * received first, without holding them (a drain claims instead). An entry whose sealed body does
 * not open is marked failed (`fail`) instead of returned.
 */
export async function readDueEntries(
  uow: PartnerUnitOfWork,
  read: InboxDueRead,
  open: (row: InboxStoredRow) => InboxEntry,
  fail: (eventId: string, error: string) => Promise<unknown>,
): Promise<InboxEntry[]> {
  const { now } = read;
  const youngest = new Date(now.getTime() - (read.minAgeMs ?? 0));
  const rows = await uow.run((m) =>
    m
      .createQueryBuilder(PartnerWebhookInboxEntity, 'i')
      .where(
        new Brackets((w) => {
          w.where('i.state = :pending AND i.received_at <= :youngest', { pending: 'pending', youngest });
          w.orWhere('i.state = :failed AND i.next_attempt_at <= :now', { failed: 'failed', now });
        }),
      )
      .orderBy('i.received_at', 'ASC')
      .addOrderBy('i.event_key', 'ASC')
      .limit(read.limit ?? 100)
      .getMany(),
  );
  const entries: InboxEntry[] = [];
  for (const row of rows) {
    try {
      entries.push(open(row));
    } catch (error) {
      // A body that cannot be opened (altered in the database) must not stall every other
      // entry behind it: it fails like a handler would, backs off, and ends dead and visible.
      await fail(fromStoredText(row.eventId), `stored body cannot be opened: ${(error as Error).message}`);
    }
  }
  return entries;
}
