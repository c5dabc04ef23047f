import { Client, type ClientConfig } from 'pg';

/** A node-postgres client for the scripts and tests (one place that knows how they connect). */
export type PgClient = Client;
export type PgClientConfig = ClientConfig;

export function newPgClient(config: PgClientConfig): PgClient {
  return new Client(config);
}
