import { hostname } from 'node:os';
import type { PartnerDatabaseKind } from './database/sql-dialect.util';
import { PartnerTypeOrmConfigurationError } from './partner-payments-typeorm.errors';
import {
  resolveInboxOptions,
  type PartnerTypeOrmInboxOptions,
  type PartnerTypeOrmInboxResolvedOptions,
} from './inbox/inbox.options';
import {
  resolvePayoutOutboxOptions,
  type PartnerPayoutOutboxOptions,
  type PartnerPayoutOutboxResolvedOptions,
} from './payouts/payout-outbox.options';
import {
  resolveVersionPinOptions,
  type PartnerVersionPinOptions,
  type PartnerVersionPinResolvedOptions,
} from './version-pin/version-pin.options';

/** The options of `PartnerPaymentsTypeOrmModule.forRoot` / `forRootAsync`'s factory. */
export interface PartnerPaymentsTypeOrmOptions {
  /**
   * This process's name in `job_locks.holder` (who ran a job last). Up to 128 characters.
   * Default `<hostname>:<pid>`.
   */
  holder?: string;
  /**
   * SQLite: how long a job's lease keeps other processes on the file out without being renewed,
   * in ms. The holder renews it every second while the job runs; a process that dies mid-run
   * leaves a lease that lapses after this long, and the job can then run elsewhere. An integer
   * from 3000 to 3600000. Default 30000. (PostgreSQL needs none: the lock ends with its session.)
   */
  sqliteLeaseMs?: number;
  /**
   * The durable webhook inbox (PartnerTypeOrmInboxStore, PartnerInboxOperator). Without it, the
   * inbox's services are provided but refuse every call, naming this option.
   */
  inbox?: PartnerTypeOrmInboxOptions;
  /** PartnerPayoutOutbox: the re-drive's grace, maximum age and batch size. */
  payouts?: PartnerPayoutOutboxOptions;
  /**
   * The opt-in version-pin job (PartnerVersionPin): restores the stored pin at start and pins the
   * account on its schedule, once across replicas. Without it nothing is scheduled and
   * PartnerVersionPin refuses every call, naming this option.
   */
  versionPin?: PartnerVersionPinOptions;
}

/** The extras of `forRoot` / `forRootAsync` (outside the options: they shape the module itself). */
export interface PartnerPaymentsTypeOrmExtras {
  /**
   * The name of the DataSource to use, as registered with `@nestjs/typeorm`
   * (`TypeOrmModule.forRoot({ name })`). Default: the default DataSource.
   */
  dataSource?: string;
}

/** The options with their defaults, validated. */
export interface PartnerTypeOrmResolvedOptions {
  holder: string;
  sqliteLeaseMs: number;
  payouts: PartnerPayoutOutboxResolvedOptions;
  /** Present when `inbox` was given. */
  inbox?: PartnerTypeOrmInboxResolvedOptions;
  /** Present when `versionPin` was given. */
  versionPin?: PartnerVersionPinResolvedOptions;
}

export const DEFAULT_SQLITE_LEASE_MS = 30_000;
const MIN_SQLITE_LEASE_MS = 3_000;
const MAX_SQLITE_LEASE_MS = 3_600_000;
const MAX_HOLDER_LENGTH = 128;

export { PartnerTypeOrmConfigurationError };

/** Merges the defaults and validates; throws PartnerTypeOrmConfigurationError naming the field. */
export function resolvePartnerTypeOrmOptions(
  options: PartnerPaymentsTypeOrmOptions = {},
  kind: PartnerDatabaseKind = 'postgres',
): PartnerTypeOrmResolvedOptions {
  const holder = options.holder ?? `${hostname()}:${process.pid}`;
  if (typeof holder !== 'string' || holder.trim() === '' || holder.length > MAX_HOLDER_LENGTH)
    throw new PartnerTypeOrmConfigurationError(
      'holder',
      `must be a non-empty string of at most ${MAX_HOLDER_LENGTH} characters`,
    );
  const sqliteLeaseMs = options.sqliteLeaseMs ?? DEFAULT_SQLITE_LEASE_MS;
  if (
    !Number.isInteger(sqliteLeaseMs) ||
    sqliteLeaseMs < MIN_SQLITE_LEASE_MS ||
    sqliteLeaseMs > MAX_SQLITE_LEASE_MS
  )
    throw new PartnerTypeOrmConfigurationError(
      'sqliteLeaseMs',
      `must be an integer from ${MIN_SQLITE_LEASE_MS} to ${MAX_SQLITE_LEASE_MS} (ms), got ${String(sqliteLeaseMs)}`,
    );
  const payouts = resolvePayoutOutboxOptions(options.payouts);
  if (Array.isArray(payouts)) throw new PartnerTypeOrmConfigurationError(...payouts);
  const resolved: PartnerTypeOrmResolvedOptions = { holder, sqliteLeaseMs, payouts };
  if (options.versionPin !== undefined) {
    const versionPin = resolveVersionPinOptions(options.versionPin);
    if (Array.isArray(versionPin)) throw new PartnerTypeOrmConfigurationError(...versionPin);
    resolved.versionPin = versionPin;
  }
  if (options.inbox === undefined) return resolved;
  const inbox = resolveInboxOptions(options.inbox, kind, (field, message) => {
    throw new PartnerTypeOrmConfigurationError(field, message);
  });
  return { ...resolved, inbox };
}
