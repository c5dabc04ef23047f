import type { DataSource } from 'typeorm';
import type { PartnerDatabaseKind } from './database/sql-dialect.util';
import { PartnerWebhookInboxTombstoneEntity } from './inbox/webhook-inbox-tombstone.entity';
import { PartnerWebhookInboxEntity } from './inbox/webhook-inbox.entity';
import { PartnerJobLockEntity } from './job-locks/job-lock.entity';

/** Each entity's table, as the package's SQL statements name it (unqualified). */
const TABLES = [
  { entity: PartnerJobLockEntity, table: 'job_locks' },
  { entity: PartnerWebhookInboxEntity, table: 'webhook_inbox' },
  { entity: PartnerWebhookInboxTombstoneEntity, table: 'webhook_inbox_tombstones' },
];

/**
 * Why the DataSource's mapping of the package's entities would split them from the package's SQL,
 * or null when it does not: the statements name the tables unqualified, so the entities must map
 * to the same table and column names (no `entityPrefix`, no naming strategy renaming them) and, on PostgreSQL, to
 * the schema the connection's search_path resolves them in. Said at boot instead of at the first
 * delivery, which would be answered 500 and lost (spec 6.1.4). A DataSource not initialised yet
 * (`manualInitialization`) has no mapping to read and is not checked.
 */
export async function packageTablesMismatch(
  dataSource: DataSource,
  kind: PartnerDatabaseKind,
): Promise<string | null> {
  if (!dataSource.isInitialized) return null;
  let current: string | null | undefined;
  for (const { entity, table } of TABLES) {
    if (!dataSource.hasMetadata(entity)) continue;
    const metadata = dataSource.getMetadata(entity);
    if (metadata.tableName !== table)
      return `maps ${entity.name} to ${metadata.tableName}, not ${table}: the package's SQL names ${table} (an entityPrefix or a naming strategy renaming tables cannot apply to it)`;
    const renamed = metadata.columns.find(
      (c) => c.givenDatabaseName !== undefined && c.databaseName !== c.givenDatabaseName,
    );
    if (renamed)
      return `maps ${entity.name}.${renamed.propertyName} to the column ${renamed.databaseName}, not ${renamed.givenDatabaseName}: the package's SQL names ${renamed.givenDatabaseName} (a naming strategy renaming columns cannot apply to it)`;
    if (kind !== 'postgres' || !metadata.schema) continue;
    if (current === undefined) {
      const rows: Array<{ schema: string | null }> = await dataSource.query(
        'SELECT current_schema() AS schema',
      );
      current = rows[0]?.schema ?? null;
    }
    if (metadata.schema !== current)
      return `maps ${entity.name} to ${metadata.schema}.${table}, but the connection's current schema is ${current ?? 'none'}: the package's SQL names its tables unqualified (put ${metadata.schema} first in the connection's search_path, or leave schema out)`;
  }
  return null;
}
