import { isAbsolute, resolve } from 'node:path';

export type DatabaseKind = 'sqlite' | 'postgres';

export type ParsedDatabaseUrl =
  | { kind: 'sqlite'; /** absolute file path, or ':memory:' */ path: string }
  | { kind: 'postgres'; url: string };

export const DEFAULT_DATABASE_URL = 'sqlite:./data/reference-app.sqlite';

/**
 * DATABASE_URL: `sqlite:<file path>` (relative paths resolve against the working directory) or
 * `postgres://…` / `postgresql://…`. Anything else is a configuration error naming the variable.
 */
export function parseDatabaseUrl(value: string, cwd: string = process.cwd()): ParsedDatabaseUrl {
  const trimmed = value.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) {
    try {
      new URL(trimmed);
    } catch {
      throw new Error('DATABASE_URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: trimmed };
  }
  const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(trimmed);
  if (sqlite) {
    const path = sqlite[1];
    if (path === ':memory:') return { kind: 'sqlite', path };
    return { kind: 'sqlite', path: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  throw new Error('DATABASE_URL must be sqlite:<file path> or postgres://user:password@host:port/database');
}

/** For logs: the kind and where, never a password. */
export function describeDatabase(parsed: ParsedDatabaseUrl): string {
  if (parsed.kind === 'sqlite') return `SQLite ${parsed.path}`;
  const url = new URL(parsed.url);
  return `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
