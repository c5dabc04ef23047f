import type { LogLevel } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { parseDatabaseUrl, type ParsedDatabaseUrl } from '../database/database-url.util';
import { PartnerInboxKeyRing, parseInboxKeys, type CommitDurability } from '@partner-payments/typeorm';
import type { AppConfig } from './app-config.types';
import { CONFIG_DEFAULTS } from './config-defaults.constants';
import { CRON_VARIABLES, EnvironmentVariables } from './environment.rules';
import { CRON_MESSAGE, isCron, isSet } from './environment.util';
import { loadHttpServerConfig } from './http-server.config';
import { loadObservabilityConfig } from './observability.config';
import { redriveTimes } from './redrive-grace.policy';

export { minimumRedriveGraceMs } from './redrive-grace.policy';

export type { AppConfig } from './app-config.types';
export { CONFIG_DEFAULTS } from './config-defaults.constants';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Most severe first: LOG_LEVEL=log keeps fatal, error, warn and log. */
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

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
