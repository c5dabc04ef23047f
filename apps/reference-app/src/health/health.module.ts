import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ReadinessIndicators } from './readiness-indicators.service';
import { StartupState } from './startup-state.service';

/** GET /health/live and /health/ready (@nestjs/terminus), and the start-up state the jobs report to. */
@Module({
  // A failed check is logged as one JSON line.
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [ReadinessIndicators, StartupState],
  exports: [StartupState],
})
export class HealthModule {}
