/**
 * The few members of node-postgres' Client the scripts and tests use, typed here because
 * @types/pg is not installed (requested from the lead; once it is, this file can import 'pg').
 */
export interface PgClient {
  connect(): Promise<void>;
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  end(): Promise<void>;
}

export interface PgClientConfig {
  connectionString?: string;
  host?: string;
  port?: number;
  user?: string;
  database?: string;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pg = require('pg') as { Client: new (config: PgClientConfig) => PgClient };

export function newPgClient(config: PgClientConfig): PgClient {
  return new pg.Client(config);
}
