import type { LogLevel } from '@nestjs/common';
import type { CommitDurability, PartnerInboxKeyRing } from '@partner-payments/typeorm';
import type { ParsedDatabaseUrl } from '../database/database-url.util';
import type { HttpServerConfig } from './http-server.config';
import type { ObservabilityConfig } from './observability.config';

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
