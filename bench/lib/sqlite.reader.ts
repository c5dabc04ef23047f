/**
 * Read-only queries on a SQLite file through better-sqlite3 (installed for TypeORM). It ships no
 * types and @types/better-sqlite3 is not installed, so the little we use is typed here.
 */
interface Statement {
  all(...params: unknown[]): unknown[];
}
interface SqliteDatabase {
  prepare(sql: string): Statement;
  close(): void;
}
type SqliteConstructor = new (
  file: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => SqliteDatabase;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as SqliteConstructor;

export function queryAll<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
