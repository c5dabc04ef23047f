import type { LogLevel } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import {
  DEFAULT_DATABASE_URL,
  parseDatabaseUrl,
  type ParsedDatabaseUrl,
} from '../database/database-url.util';
import {
  DEFAULT_INBOX_RECORD_TIMEOUT_MS,
  PartnerInboxKeyRing,
  parseInboxKeys,
  type CommitDurability,
} from '@partner-payments/typeorm';
import { CRON_MESSAGE, CRON_VARIABLES, EnvironmentVariables, isCron, isSet } from './environment.rules';
import { loadHttpServerConfig, type HttpServerConfig } from './http-server.config';
import { loadObservabilityConfig, type ObservabilityConfig } from './observability.config';
import { redriveTimes } from './redrive-grace.policy';

export { minimumRedriveGraceMs } from './redrive-grace.policy';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** The validated configuration, with every default applied. */
export interface AppConfig {
  partner: {
    /** null: start the embedded sandbox (issue: the demo). */
    baseUrl: string | null;
    environment: 'sandbox' | 'production';
    apiKey: string | null;
    clientId: string | null;
    password: string | null;
    clientUuid: string | null;
    webhookSecrets: string[];
    apiVersion: string;
    timeoutMs: number;
    maxRetries: number;
    sendVersionHeader: 'always' | 'until-pinned';
    /** Client-side rate limit; `budget` says where its bucket lives (replicas share one). */
    rateLimit: { perSecond: number; burst: number; budget: 'database' | 'process' | 'off' };
  };
  database: ParsedDatabaseUrl;
  port: number;
  /** Interface to bind (HOST). */
  host: string;
  publicBaseUrl: string | null;
  /** Timeouts and connection limit of the HTTP server (config/http-server.config.ts). */
  http: HttpServerConfig;
  /**
   * Who may call what. `open`: the embedded-sandbox demo with the variable unset,
   * where that class of endpoints is open (said once at start); elsewhere an unset variable refuses.
   */
  access: {
    /** OPERATOR_TOKEN; null: unset. */
    operatorToken: string | null;
    /** APP_API_KEYS, trimmed; empty: unset. */
    apiKeys: string[];
    /** The embedded-sandbox demo: an unset variable leaves its endpoints open instead of refused. */
    demoOpen: boolean;
  };
  reconcile: {
    cron: string;
    batchSize: number;
    concurrency: number;
    completedWindowHours: number;
    /** Past the window, COMPLETED payouts are checked once a day for this many days (0: not). */
    returnHorizonDays: number;
    /** Settle from the partner's payout list; false: one GET per payout. */
    useList: boolean;
  };
  /** Deposit reconciliation (docs/partner-api.md §6.4.8: a hold's outcome may never arrive as an event). */
  depositReconcileCron: string;
  /** COMPLETED deposits re-read one by one per deposit pass at most (a refund after settlement). */
  depositRecheckLimit: number;
  /** Open (held) deposits re-read one by one per deposit pass at most, rotating past it. */
  depositOpenLimit: number;
  inbox: {
    redeliveryCron: string;
    maxAttempts: number;
    /** PostgreSQL: bound of the insert recording deliveries (INBOX_RECORD_TIMEOUT_MS), in ms. */
    recordTimeoutMs: number;
    /** How processing transactions commit (INBOX_PROCESSING_DURABILITY): PartnerUnitOfWork's CommitDurability. */
    processingDurability: CommitDurability;
    /** Entries per batch and at once in a redelivery run, which drains until nothing is due. */
    redeliveryBatchSize: number;
    redeliveryConcurrency: number;
    /** INBOX_ENCRYPTION_KEYS; null: the embedded-sandbox demo makes or reuses a key file. */
    keyRing: PartnerInboxKeyRing | null;
    retentionDays: number;
    pruneCron: string;
  };
  versionPinCron: string;
  /** The RFI feature (rfis/): when its reconciliation job reads the partner's RFIs. */
  rfis: { reconcileCron: string };
  /** The outbox re-drive of POST /payouts. */
  redrive: {
    cron: string;
    /** A request pending this long is re-sent; a re-send's claim lasts as long. */
    graceMs: number;
    /** Past this age (since the request was stored) it is left `needs_review` instead. */
    maxAgeMs: number;
  };
  /** Run the scripted demo flow after start. */
  demo: boolean;
  /** Levels the app logs (LOG_LEVEL and everything more severe). */
  logLevels: LogLevel[];
  /** Log format, readiness bounds, OTLP tracing (config/observability.config.ts). */
  observability: ObservabilityConfig;
}

/** Most severe first: LOG_LEVEL=log keeps fatal, error, warn and log. */
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export const CONFIG_DEFAULTS = {
  PARTNER_ENV: 'sandbox',
  PARTNER_API_VERSION: '2026-04-14',
  PARTNER_TIMEOUT_MS: 10000,
  PARTNER_MAX_RETRIES: 2,
  // evidence §1 [T1 REVISION-DOCS]: the production checklist asks for the same version on every
  // request. With until-pinned, replicas that learned the pin at start stop sending the header, and
  // after a rolling version bump (a new replica moves the pin) they are served the new version
  // unawares; always keeps every replica on the version it was built for.
  PARTNER_SEND_VERSION_HEADER: 'always',
  PARTNER_RATE_LIMIT_PER_SECOND: 20,
  // The partner allows bursts of 50 (evidence §1); 10 are left for jitter: our bucket and the
  // partner's are not in phase, and requests reach it later than they leave us.
  PARTNER_RATE_LIMIT_BURST: 40,
  PARTNER_RATE_BUDGET: 'database',
  DATABASE_URL: DEFAULT_DATABASE_URL,
  PORT: 3000,
  HOST: '127.0.0.1',
  RECONCILE_CRON: '0 * * * * *',
  RECONCILE_BATCH_SIZE: 50,
  RECONCILE_CONCURRENCY: 4,
  RECONCILE_COMPLETED_WINDOW_HOURS: 72,
  RECONCILE_RETURN_HORIZON_DAYS: 60,
  RECONCILE_USE_LIST: 'true',
  DEPOSIT_RECONCILE_CRON: '15 */5 * * * *',
  DEPOSIT_RECONCILE_RECHECK_LIMIT: 200,
  DEPOSIT_RECONCILE_OPEN_LIMIT: 200,
  INBOX_REDELIVERY_CRON: '30 * * * * *',
  INBOX_MAX_ATTEMPTS: 5,
  INBOX_RECORD_TIMEOUT_MS: DEFAULT_INBOX_RECORD_TIMEOUT_MS,
  /** SQLite only (PostgreSQL: full, see loadAppConfig). */
  INBOX_PROCESSING_DURABILITY: 'relaxed',
  INBOX_REDELIVERY_BATCH_SIZE: 100,
  INBOX_REDELIVERY_CONCURRENCY: 4,
  INBOX_RETENTION_DAYS: 30,
  INBOX_PRUNE_CRON: '0 45 3 * * *',
  VERSION_PIN_CRON: '0 15 3 * * *',
  PAYOUT_REDRIVE_CRON: '45 * * * * *',
  RFI_RECONCILE_CRON: '20 */5 * * * *',
  PAYOUT_REDRIVE_GRACE_SECONDS: 300,
  PAYOUT_REDRIVE_MAX_AGE_HOURS: 24,
  DEMO: 'auto',
  LOG_LEVEL: 'log',
} as const;

export class ConfigValidationError extends Error {
  constructor(readonly problems: Array<{ variable: string; message: string }>) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable} ${p.message}`).join('; ')}`);
    this.name = 'ConfigValidationError';
  }
}

/** Validates the environment and applies defaults; throws naming every bad variable (never its value). */
export function loadAppConfig(env: Record<string, string | undefined>): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => isSet(v)));
  const vars = plainToInstance(EnvironmentVariables, present);
  const problems = validateSync(vars, { whitelist: false }).flatMap(describe);
  for (const name of CRON_VARIABLES) {
    const value = vars[name];
    if (value !== undefined && !isCron(value)) problems.push({ variable: name, message: CRON_MESSAGE });
  }
  let keyRing: PartnerInboxKeyRing | null = null;
  if (
    vars.INBOX_ENCRYPTION_KEYS !== undefined &&
    !problems.some((p) => p.variable === 'INBOX_ENCRYPTION_KEYS')
  ) {
    try {
      keyRing = new PartnerInboxKeyRing(parseInboxKeys(vars.INBOX_ENCRYPTION_KEYS));
    } catch (error) {
      problems.push({ variable: 'INBOX_ENCRYPTION_KEYS', message: (error as Error).message });
    }
  }
  const timeoutMs = vars.PARTNER_TIMEOUT_MS ?? CONFIG_DEFAULTS.PARTNER_TIMEOUT_MS;
  const maxRetries = vars.PARTNER_MAX_RETRIES ?? CONFIG_DEFAULTS.PARTNER_MAX_RETRIES;
  const { graceSeconds, maxAgeHours } = redriveTimes(
    vars,
    timeoutMs,
    maxRetries,
    {
      graceSeconds: CONFIG_DEFAULTS.PAYOUT_REDRIVE_GRACE_SECONDS,
      maxAgeHours: CONFIG_DEFAULTS.PAYOUT_REDRIVE_MAX_AGE_HOURS,
    },
    problems,
  );
  let database: ParsedDatabaseUrl | null = null;
  try {
    database = parseDatabaseUrl(vars.DATABASE_URL ?? CONFIG_DEFAULTS.DATABASE_URL);
  } catch (error) {
    if (!problems.some((p) => p.variable === 'DATABASE_URL')) {
      problems.push({
        variable: 'DATABASE_URL',
        message: (error as Error).message.replace(/^DATABASE_URL /, ''),
      });
    }
  }
  if (database?.kind === 'postgres' && vars.INBOX_PROCESSING_DURABILITY === 'relaxed') {
    // A relaxed commit lost on PostgreSQL (the database host's OS crash or power loss) is lost
    // while the app keeps running, past handlers it saw succeed: processing commits stay full.
    problems.push({
      variable: 'INBOX_PROCESSING_DURABILITY',
      message:
        'must be full with PostgreSQL: the app outlives a lost commit there and would not apply the entry again',
    });
  }
  const http = loadHttpServerConfig(vars, problems);
  if (problems.length > 0 || !database) throw new ConfigValidationError(problems);

  const baseUrl = vars.PARTNER_BASE_URL ?? null;
  return {
    partner: {
      baseUrl,
      environment: (vars.PARTNER_ENV ?? CONFIG_DEFAULTS.PARTNER_ENV) as 'sandbox' | 'production',
      apiKey: vars.PARTNER_API_KEY ?? null,
      clientId: vars.PARTNER_CLIENT_ID ?? null,
      password: vars.PARTNER_PASSWORD ?? null,
      clientUuid: vars.PARTNER_CLIENT_UUID ?? null,
      webhookSecrets: splitList(vars.PARTNER_WEBHOOK_SECRET),
      apiVersion: vars.PARTNER_API_VERSION ?? CONFIG_DEFAULTS.PARTNER_API_VERSION,
      timeoutMs,
      maxRetries,
      sendVersionHeader: (vars.PARTNER_SEND_VERSION_HEADER ?? CONFIG_DEFAULTS.PARTNER_SEND_VERSION_HEADER) as
        'always' | 'until-pinned',
      rateLimit: {
        perSecond: vars.PARTNER_RATE_LIMIT_PER_SECOND ?? CONFIG_DEFAULTS.PARTNER_RATE_LIMIT_PER_SECOND,
        burst: vars.PARTNER_RATE_LIMIT_BURST ?? CONFIG_DEFAULTS.PARTNER_RATE_LIMIT_BURST,
        budget: (vars.PARTNER_RATE_BUDGET ?? CONFIG_DEFAULTS.PARTNER_RATE_BUDGET) as
          'database' | 'process' | 'off',
      },
    },
    database,
    port: vars.PORT ?? CONFIG_DEFAULTS.PORT,
    host: vars.HOST ?? CONFIG_DEFAULTS.HOST,
    publicBaseUrl: vars.PUBLIC_BASE_URL ?? null,
    http,
    access: {
      operatorToken: vars.OPERATOR_TOKEN ?? null,
      apiKeys: splitList(vars.APP_API_KEYS),
      demoOpen: baseUrl === null,
    },
    reconcile: {
      cron: vars.RECONCILE_CRON ?? CONFIG_DEFAULTS.RECONCILE_CRON,
      batchSize: vars.RECONCILE_BATCH_SIZE ?? CONFIG_DEFAULTS.RECONCILE_BATCH_SIZE,
      concurrency: vars.RECONCILE_CONCURRENCY ?? CONFIG_DEFAULTS.RECONCILE_CONCURRENCY,
      completedWindowHours:
        vars.RECONCILE_COMPLETED_WINDOW_HOURS ?? CONFIG_DEFAULTS.RECONCILE_COMPLETED_WINDOW_HOURS,
      returnHorizonDays: vars.RECONCILE_RETURN_HORIZON_DAYS ?? CONFIG_DEFAULTS.RECONCILE_RETURN_HORIZON_DAYS,
      useList: (vars.RECONCILE_USE_LIST ?? CONFIG_DEFAULTS.RECONCILE_USE_LIST) === 'true',
    },
    depositReconcileCron: vars.DEPOSIT_RECONCILE_CRON ?? CONFIG_DEFAULTS.DEPOSIT_RECONCILE_CRON,
    depositRecheckLimit:
      vars.DEPOSIT_RECONCILE_RECHECK_LIMIT ?? CONFIG_DEFAULTS.DEPOSIT_RECONCILE_RECHECK_LIMIT,
    depositOpenLimit: vars.DEPOSIT_RECONCILE_OPEN_LIMIT ?? CONFIG_DEFAULTS.DEPOSIT_RECONCILE_OPEN_LIMIT,
    inbox: {
      redeliveryCron: vars.INBOX_REDELIVERY_CRON ?? CONFIG_DEFAULTS.INBOX_REDELIVERY_CRON,
      maxAttempts: vars.INBOX_MAX_ATTEMPTS ?? CONFIG_DEFAULTS.INBOX_MAX_ATTEMPTS,
      recordTimeoutMs: vars.INBOX_RECORD_TIMEOUT_MS ?? CONFIG_DEFAULTS.INBOX_RECORD_TIMEOUT_MS,
      processingDurability: (database.kind === 'postgres'
        ? 'full'
        : (vars.INBOX_PROCESSING_DURABILITY ??
          CONFIG_DEFAULTS.INBOX_PROCESSING_DURABILITY)) as CommitDurability,
      redeliveryBatchSize: vars.INBOX_REDELIVERY_BATCH_SIZE ?? CONFIG_DEFAULTS.INBOX_REDELIVERY_BATCH_SIZE,
      redeliveryConcurrency:
        vars.INBOX_REDELIVERY_CONCURRENCY ?? CONFIG_DEFAULTS.INBOX_REDELIVERY_CONCURRENCY,
      keyRing,
      retentionDays: vars.INBOX_RETENTION_DAYS ?? CONFIG_DEFAULTS.INBOX_RETENTION_DAYS,
      pruneCron: vars.INBOX_PRUNE_CRON ?? CONFIG_DEFAULTS.INBOX_PRUNE_CRON,
    },
    versionPinCron: vars.VERSION_PIN_CRON ?? CONFIG_DEFAULTS.VERSION_PIN_CRON,
    rfis: { reconcileCron: vars.RFI_RECONCILE_CRON ?? CONFIG_DEFAULTS.RFI_RECONCILE_CRON },
    redrive: {
      cron: vars.PAYOUT_REDRIVE_CRON ?? CONFIG_DEFAULTS.PAYOUT_REDRIVE_CRON,
      graceMs: graceSeconds * 1000,
      maxAgeMs: maxAgeHours * 3_600_000,
    },
    demo: (vars.DEMO ?? CONFIG_DEFAULTS.DEMO) === 'auto' ? baseUrl === null : vars.DEMO === 'true',
    logLevels: LOG_LEVELS.slice(
      0,
      LOG_LEVELS.indexOf((vars.LOG_LEVEL ?? CONFIG_DEFAULTS.LOG_LEVEL) as LogLevel) + 1,
    ),
    observability: loadObservabilityConfig(vars),
  };
}

/** A comma-separated list (secrets during a rotation), trimmed, empty entries dropped. */
function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** One entry per variable, its messages joined (an out-of-range PORT fails several rules at once). */
function describe(error: ValidationError): Array<{ variable: string; message: string }> {
  const messages = [
    ...new Set(Object.values(error.constraints ?? {}).map((m) => stripName(m, error.property))),
  ];
  return [{ variable: error.property, message: messages.length ? messages.join(', ') : 'is invalid' }];
}

/** class-validator's built-in messages start with the property name; ours do not. Keep one. */
function stripName(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
