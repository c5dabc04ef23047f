import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min, ValidateIf } from 'class-validator';
import { DeploymentVariables } from './deployment.rules';
import { whenRemote } from './partner.rules';
import { toInt, trimmed } from './environment.util';

/**
 * Every environment variable the app reads, validated at boot (class-validator): the jobs' and the
 * inbox's here, the rest in the classes it extends (deployment, partner, HTTP server,
 * observability). Messages name the variable and never echo its value (several are secrets).
 * Defaults live in config-defaults.constants.ts.
 */
export class EnvironmentVariables extends DeploymentVariables {
  @IsOptional()
  @Transform(trimmed)
  RECONCILE_CRON?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 1000' })
  @Max(1000, { message: 'must be between 1 and 1000' })
  RECONCILE_BATCH_SIZE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 20 (the partner allows 20 requests/s)' })
  @Max(20, { message: 'must be between 1 and 20 (the partner allows 20 requests/s)' })
  RECONCILE_CONCURRENCY?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be 0 or more' })
  RECONCILE_COMPLETED_WINDOW_HOURS?: number;

  /**
   * Past RECONCILE_COMPLETED_WINDOW_HOURS, a COMPLETED payout is still checked once a day for this
   * many days after its last change: COMPLETED is never final (spec 3.4, evidence §6: a bank return
   * moves it to FAILED), and a lost payout.returned is never re-sent (spec 6.1.4). 0: not checked.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be between 0 and 400' })
  @Max(400, { message: 'must be between 0 and 400' })
  RECONCILE_RETURN_HORIZON_DAYS?: number;

  /**
   * COMPLETED deposits re-read one by one in a deposit reconciliation pass, at most (a refund after
   * settlement, evidence §5). 200 a 5-minute pass is 10 s of the partner's 20 requests/s, shared by
   * every call (evidence §1); past it the reads rotate across passes. 0: no recheck.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be between 0 and 5000' })
  @Max(5000, { message: 'must be between 0 and 5000' })
  DEPOSIT_RECONCILE_RECHECK_LIMIT?: number;

  /**
   * Deposits held in a non-final status (PENDING, KYT_PENDING, KYT_REJECTED) that the list did not
   * show, re-read one by one in a deposit pass, at most; past it the reads rotate across passes.
   * A KYT_REJECTED deposit may wait for its release for ever (evidence §5), so their number has no
   * bound of its own; this keeps one pass within the partner's 20 requests/s (evidence §1).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 5000' })
  @Max(5000, { message: 'must be between 1 and 5000' })
  DEPOSIT_RECONCILE_OPEN_LIMIT?: number;

  /** false: read every payout by GET (the per-payout path, for an account whose list is unavailable). */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  RECONCILE_USE_LIST?: string;

  @IsOptional()
  @Transform(trimmed)
  DEPOSIT_RECONCILE_CRON?: string;

  @IsOptional()
  @Transform(trimmed)
  INBOX_REDELIVERY_CRON?: string;

  /** The RFI reconciliation job (rfis/): a lost rfi.* delivery is never re-sent (spec 6.1.4). */
  @IsOptional()
  @Transform(trimmed)
  RFI_RECONCILE_CRON?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 100' })
  @Max(100, { message: 'must be between 1 and 100' })
  INBOX_MAX_ATTEMPTS?: number;

  /** Far under the partner's 30 s answer timeout [T1 REVISION-DOCS §2.4], over a normal commit. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(100, { message: 'must be between 100 and 25000' })
  @Max(25000, { message: 'must be between 100 and 25000' })
  INBOX_RECORD_TIMEOUT_MS?: number;

  /**
   * How the transactions that process inbox entries commit on SQLite. relaxed: no
   * fsync of their own; a power loss may roll the last ones back (the app dies with them), and
   * their entries are processed again at the next start. The recording of a delivery always
   * commits with an fsync, before the 2xx (spec 6.1.4). PostgreSQL: full only (loadAppConfig).
   */
  @IsOptional()
  @IsIn(['relaxed', 'full'], { message: 'must be relaxed or full' })
  INBOX_PROCESSING_DURABILITY?: string;

  /**
   * Inbox bodies are sealed with AES-256-GCM (they carry full account numbers). Unset with the
   * embedded sandbox: the demo makes a key file beside its SQLite file. The format is checked in
   * app.config.ts.
   */
  @ValidateIf(whenRemote)
  @Matches(/[^,\s]/, {
    message:
      'is required when PARTNER_BASE_URL is set (comma-separated id:base64 keys of 32 bytes, the first encrypts, e.g. k1:<openssl rand -base64 32>)',
  })
  INBOX_ENCRYPTION_KEYS?: string;

  /** Processed inbox entries older than this are deleted by the inbox-prune job. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 3650' })
  @Max(3650, { message: 'must be between 1 and 3650' })
  INBOX_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(trimmed)
  INBOX_PRUNE_CRON?: string;

  /** Entries read per batch by the redelivery job, which drains batch after batch until none is due. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 1000' })
  @Max(1000, { message: 'must be between 1 and 1000' })
  INBOX_REDELIVERY_BATCH_SIZE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 32' })
  @Max(32, { message: 'must be between 1 and 32' })
  INBOX_REDELIVERY_CONCURRENCY?: number;

  @IsOptional()
  @Transform(trimmed)
  VERSION_PIN_CRON?: string;

  /** The outbox re-drive of POST /payouts left pending (payouts/payout-redrive.service.ts). */
  @IsOptional()
  @Transform(trimmed)
  PAYOUT_REDRIVE_CRON?: string;

  /**
   * How long a request stays pending before the re-drive re-sends it; also how long a re-send holds
   * its claim. Must exceed one full partner call with its retries and a re-authentication (checked
   * against PARTNER_TIMEOUT_MS and PARTNER_MAX_RETRIES at boot), so an answer still on its way is not
   * raced, and be shorter than PAYOUT_REDRIVE_MAX_AGE_HOURS, or nothing would ever be re-sent.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 86400' })
  @Max(86400, { message: 'must be between 1 and 86400' })
  PAYOUT_REDRIVE_GRACE_SECONDS?: number;

  /**
   * Past this age a pending request is no longer re-sent but left `needs_review`: the partner does
   * not document how long it keeps an Idempotency-Key, and re-sending a forgotten key would create a
   * second payout.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 24' })
  // The partner keeps an Idempotency-Key for 24 h (evidence §11 N40): a later re-send could pay twice.
  @Max(24, { message: 'must be between 1 and 24: the partner forgets an Idempotency-Key after 24 h' })
  PAYOUT_REDRIVE_MAX_AGE_HOURS?: number;

  @IsOptional()
  @IsIn(['true', 'false', 'auto'], { message: 'must be true, false or auto' })
  DEMO?: string;

  /** The most detailed level logged; 'debug' adds one line per partner call (never bodies or secrets). */
  @IsOptional()
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'], {
    message: 'must be error, warn, log, debug or verbose',
  })
  LOG_LEVEL?: string;
}

/** Cron variables are checked with the scheduler's own parser, so what boots is what runs. */
export const CRON_VARIABLES = [
  'RECONCILE_CRON',
  'DEPOSIT_RECONCILE_CRON',
  'INBOX_REDELIVERY_CRON',
  'INBOX_PRUNE_CRON',
  'VERSION_PIN_CRON',
  'PAYOUT_REDRIVE_CRON',
  'RFI_RECONCILE_CRON',
] as const;
