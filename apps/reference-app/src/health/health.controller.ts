import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Access } from '../common/access.guard';
import { StartupState } from './startup-state.service';
import { ReadinessIndicators } from './readiness-indicators.service';

/**
 * Liveness and readiness as orchestrators expect them, with @nestjs/terminus: 200
 * `{ status: 'ok', info, error, details }`, or 503 `{ status: 'error', ... }` naming the failed
 * check. Public: probes carry no credential.
 *
 * - GET /health/live: the process answers. No dependency is checked: restarting the process would
 *   not bring a database or the partner back, and a liveness failure restarts it.
 * - GET /health/ready: the database reachable, the inbox able to record (`inboxWrite`: a write
 *   probe, not `SELECT 1`), a partner token obtainable, the inbox not lagging
 *   (readiness-indicators.service.ts), plus `startup.state`: `starting` until the start-up partner calls
 *   have finished once (readiness is 200 meanwhile, the partner check makes no
 *   call of its own), then `started`. A deploy check that wants the partner verified waits for it.
 */
@ApiTags('health')
@Access('public')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly readiness: ReadinessIndicators,
    private readonly startup: StartupState,
  ) {}

  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: the process answers (no dependency is checked)' })
  live() {
    return this.health.check([
      () => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) }),
    ]);
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({
    summary: 'Readiness: database, partner token, inbox lag, start-up state',
    description:
      'details.startup.state is `starting` until the start-up partner calls have finished once (200 meanwhile), then `started`; 503 names the failed check in `error`. With READINESS_REQUIRES_PARTNER=false a partner token that cannot be had is `degraded` (200).',
  })
  ready() {
    return this.health.check([
      () => this.indicators.check('startup').up({ state: this.startup.starting ? 'starting' : 'started' }),
      () => this.readiness.database(),
      () => this.readiness.inboxWrite(),
      () => this.readiness.partner(),
      async () => (await this.readiness.inbox()) ?? {},
    ]);
  }
}
