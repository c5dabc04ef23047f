import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import { ApiVersionState, TokenManager } from '@partner-payments/nestjs';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { UnitOfWork } from '../database/unit-of-work.service';

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  database: 'up' | 'down';
  partner: 'up' | 'down';
  apiVersion: { configured: string; pinned: string | null };
}

/**
 * GET /health. The partner probe is the bearer token: a cached one costs nothing, an expired one
 * costs one POST /auth, which is also the first thing any real call would need.
 * 503 only when the database is down (the app cannot keep what it receives); a partner outage is
 * 'degraded' (webhooks are still stored).
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly tokens: TokenManager,
    private readonly versionState: ApiVersionState,
  ) {}

  @Get()
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const [database, partner] = await Promise.all([this.probe(() => this.uow.run((m) => m.query('SELECT 1'))), this.probe(() => this.tokens.getToken())]);
    const status = database === 'down' ? 'down' : partner === 'down' ? 'degraded' : 'ok';
    if (status === 'down') res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { status, database, partner, apiVersion: { configured: this.config.partner.apiVersion, pinned: this.versionState.pinnedVersion } };
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
