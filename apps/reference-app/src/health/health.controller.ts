import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import { ApiVersionState, PartnerClientConfigService, TokenManager } from '@partner-payments/nestjs';
import type { Response } from 'express';
import { Access } from '../common/access.guard';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { UnitOfWork } from '../database/unit-of-work.service';
import { PARTNER_CONNECTION, type PartnerConnection } from '../sandbox/partner-connection.provider';
import { StartupState } from './startup.state';

export interface HealthReport {
  status: 'starting' | 'ok' | 'degraded' | 'down';
  database: 'up' | 'down';
  /** 'pending' while starting: the start-up pin and authentication have not finished yet. */
  partner: 'up' | 'down' | 'pending';
  apiVersion: { configured: string; pinned: string | null };
}

/**
 * GET /health. The partner probe is a real authenticated read of our own client configuration
 * (GET /v1/clients/{uuid}, spec 4.5; without a client UUID: the bearer token), cached for 15 s so
 * frequent health checks do not spend the partner's rate limit (provider-facts: 20 requests/s).
 * 503 only when the database is down (the app cannot keep what it receives); a partner outage is
 * 'degraded' (webhooks are still stored).
 *
 * Issue 9 defect 7: until the start-up partner calls have finished once, `starting` with 200 and
 * no partner probe of its own. 200 because the app already serves (webhooks are stored, payouts
 * created): a readiness probe must route traffic to it; a deploy check that wants the partner
 * verified waits for `ok`.
 */
@Access('public')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly tokens: TokenManager,
    private readonly versionState: ApiVersionState,
    private readonly clientConfig: PartnerClientConfigService,
    @Inject(PARTNER_CONNECTION) private readonly connection: PartnerConnection,
    private readonly startup: StartupState,
  ) {}

  private partnerProbe: { at: number; result: Promise<'up' | 'down'> } | null = null;

  @Get()
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const starting = this.startup.starting;
    const [database, partner] = await Promise.all([
      this.probe(() => this.uow.run((m) => m.query('SELECT 1'))),
      starting ? ('pending' as const) : this.partner(),
    ]);
    const status =
      database === 'down' ? 'down' : starting ? 'starting' : partner === 'down' ? 'degraded' : 'ok';
    if (status === 'down') res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return {
      status,
      database,
      partner,
      apiVersion: { configured: this.config.partner.apiVersion, pinned: this.versionState.pinnedVersion },
    };
  }

  private partner(): Promise<'up' | 'down'> {
    if (!this.partnerProbe || Date.now() - this.partnerProbe.at > 15_000) {
      const uuid = this.connection.clientUuid;
      this.partnerProbe = {
        at: Date.now(),
        result: this.probe(() =>
          uuid ? this.clientConfig.get(uuid, { maxRetries: 0 }) : this.tokens.getToken(),
        ),
      };
    }
    return this.partnerProbe.result;
  }

  private async probe(check: () => Promise<unknown>, timeoutMs = 3000): Promise<'up' | 'down'> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'down'>((resolve) => (timer = setTimeout(() => resolve('down'), timeoutMs)));
    try {
      return await Promise.race([check().then(() => 'up' as const), timeout]);
    } catch {
      return 'down';
    } finally {
      clearTimeout(timer);
    }
  }
}
