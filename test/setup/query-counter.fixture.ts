/** Counts the statements an app sends to its database, by kind, through TypeORM's query logger hook. */
import type { DataSource } from 'typeorm';

export interface QueryCounts {
  /** SELECT (and WITH ... SELECT): reads. */
  reads: number;
  /** INSERT, UPDATE, DELETE (with or without RETURNING). */
  writes: number;
  /** Transaction control and the rest (BEGIN, COMMIT, SAVEPOINT, ...). */
  other: number;
}

export interface QueryCounter {
  counts(): QueryCounts;
  stop(): void;
}

/** Every statement TypeORM runs on `dataSource` is reported to its logger's logQuery first: count there. */
export function countQueries(dataSource: DataSource): QueryCounter {
  const logger = dataSource.logger;
  const original = logger.logQuery;
  const counts: QueryCounts = { reads: 0, writes: 0, other: 0 };
  logger.logQuery = function (this: typeof logger, query, parameters, runner) {
    let verb = /^\s*(\w+)/.exec(query)?.[1]?.toUpperCase() ?? '';
    // WITH ... UPDATE (a batch write) is a write; WITH ... SELECT a read.
    if (verb === 'WITH') verb = /\b(UPDATE|INSERT|DELETE)\b/i.test(query) ? 'UPDATE' : 'SELECT';
    if (verb === 'SELECT') counts.reads += 1;
    else if (verb === 'INSERT' || verb === 'UPDATE' || verb === 'DELETE') counts.writes += 1;
    else counts.other += 1;
    return original.call(this, query, parameters, runner);
  };
  return {
    counts: () => ({ ...counts }),
    stop: () => {
      logger.logQuery = original;
    },
  };
}
