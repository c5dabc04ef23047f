import Database from 'better-sqlite3';

/** Read-only queries on the app's SQLite file (better-sqlite3, the driver TypeORM uses). */
export function queryAll<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
