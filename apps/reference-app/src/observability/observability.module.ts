import { Global, Module } from '@nestjs/common';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { AppMetrics } from './app-metrics.service';
import { readInboxStats } from './inbox-stats.util';
import { MetricsController } from './metrics.controller';

/**
 * Prometheus metrics (AppMetrics, GET /metrics). Global: every feature reports its passes there,
 * and the module options' factory injects it to wire the library's hooks. Tracing
 * (TracingLifecycle, tracing.service.ts) is registered in AppModule, for its shutdown order.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    {
      provide: AppMetrics,
      inject: [PartnerUnitOfWork],
      useFactory: (uow: PartnerUnitOfWork) => {
        const metrics = new AppMetrics();
        metrics.useInboxStats(() => readInboxStats(uow));
        return metrics;
      },
    },
  ],
  exports: [AppMetrics],
})
export class ObservabilityModule {}
