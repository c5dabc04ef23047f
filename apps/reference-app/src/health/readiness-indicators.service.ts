import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { PartnerPaymentsClient } from '@partner-payments/nestjs';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PartnerInboxOperator, PartnerUnitOfWork } from '@partner-payments/typeorm';
import type { InboxStats } from '../observability/app-metrics.service';
import { StartupState } from './startup-state.service';

/** A check that has not answered in this time counts as down (a probe must answer fast). */
const CHECK_TIMEOUT_MS = 3000;
/** A token fetch's outcome is reused this long, so frequent probes cannot hammer POST /auth. */
const PARTNER_CACHE_MS = 15_000;

/**
 * The readiness checks, as @nestjs/terminus indicators: the database reachable, the
 * inbox able to record, a partner token obtainable, the inbox not lagging. Each answers within
 * CHECK_TIMEOUT_MS.
 */
@Injectable()
export class ReadinessIndicators {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly indicators: HealthIndicatorService,
    private readonly uow: PartnerUnitOfWork,
    private readonly client: PartnerPaymentsClient,
    private readonly startup: StartupState,
    private readonly inboxOperator: PartnerInboxOperator,
  ) {}

  /**
   * The inbox can record a delivery (PartnerInboxOperator.checkWrites: a write, not `SELECT 1`). Down, a
   * replica must not be sent deliveries: each would be answered 500 and never re-sent (spec 6.1.4).
   */
  async inboxWrite(): Promise<HealthIndicatorResult<'inboxWrite'>> {
    const check = this.indicators.check('inboxWrite');
    try {
      const state = await withTimeout(this.inboxOperator.checkWrites(), CHECK_TIMEOUT_MS);
      const { ok, ...details } = state;
      return ok ? check.up() : check.down(details);
    } catch (error) {
      return check.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** SELECT 1 through the unit of work (on SQLite: behind the app's own queue, as any query). */
  database(): PromiseLike<HealthIndicatorResult<'database'>> {
    return this.indicators
      .check('database')
      .attempt(async () => {
        await this.uow.run((m) => m.query('SELECT 1'));
        return { kind: this.uow.kind };
      })
      .withTimeout(CHECK_TIMEOUT_MS);
  }

  /**
   * A valid cached token is enough (no call); otherwise one POST /auth, its outcome cached 15 s.
   * Until the start-up partner calls have finished once it is `up` with
   * `state: 'starting'` and makes no call of its own: the app already serves (webhooks are
   * stored), so readiness must route traffic to it. READINESS_REQUIRES_PARTNER=false turns a
   * failure into `degraded` (200) instead of down (503).
   */
  async partner(): Promise<HealthIndicatorResult<'partner'>> {
    const apiVersion = {
      configured: this.config.partner.apiVersion,
      pinned: this.client.versionState.pinnedVersion,
    };
    const check = this.indicators.check('partner');
    if (this.startup.starting) return check.up({ state: 'starting', apiVersion });
    const expiresAt = this.client.auth.expiresAt;
    if (expiresAt !== null && expiresAt > Date.now()) return check.up({ state: 'token cached', apiVersion });
    const fetched = await this.indicators
      .check('partner')
      .attempt(async () => {
        await this.client.auth.getToken();
        return { state: 'token obtained', apiVersion };
      })
      .withTimeout(CHECK_TIMEOUT_MS)
      .cacheFor(PARTNER_CACHE_MS);
    if (fetched.partner.status === 'up' || this.config.observability.readiness.partnerRequired)
      return fetched;
    return check.degraded({ state: 'token not obtainable', apiVersion });
  }

  /** The oldest never-processed entry younger than READINESS_INBOX_MAX_LAG_SECONDS; null when 0. */
  async inbox(): Promise<HealthIndicatorResult<'inbox'> | null> {
    const boundMs = this.config.observability.readiness.inboxMaxLagMs;
    if (boundMs === 0) return null;
    const check = this.indicators.check('inbox');
    let stats: InboxStats;
    try {
      stats = await withTimeout(this.inboxOperator.backlog(), CHECK_TIMEOUT_MS);
    } catch (error) {
      return check.down({ message: error instanceof Error ? error.message : String(error) });
    }
    const details = {
      oldestPendingSeconds: Math.round(stats.oldestAgeSeconds.pending),
      boundSeconds: boundMs / 1000,
      ...stats.counts,
    };
    // Pending only: a failed entry waits out its backoff on purpose (alerted on by its own metrics).
    return stats.oldestAgeSeconds.pending * 1000 > boundMs ? check.down(details) : check.up(details);
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout of ${ms}ms exceeded`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
