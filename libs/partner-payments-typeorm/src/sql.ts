/**
 * @partner-payments/typeorm/sql: the helpers the package writes its raw SQL with, for handlers
 * that write their own tables inside the inbox's transaction on either database (placeholders,
 * timestamps, `INSERT ... ON CONFLICT DO NOTHING`, `RETURNING` rows, prepared statements).
 */
export {
  placeholders,
  readTimestamp,
  timestampParam,
  type PartnerDatabaseKind,
} from './database/sql-dialect.util';
export { SqlParams } from './database/sql-params.util';
export { insertIfAbsent } from './database/insert-if-absent.util';
export { returningRows } from './database/returning.util';
export { pgConnectionOf, pgPoolOf, preparedQuery } from './database/prepared-query.util';
