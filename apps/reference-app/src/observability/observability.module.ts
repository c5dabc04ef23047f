import { Global, Module } from '@nestjs/common';
import { PartnerInboxOperator } from '@partner-payments/typeorm';
import { AppMetrics } from './app-metrics.service';
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
      inject: [PartnerInboxOperator],
      useFactory: (inbox: PartnerInboxOperator) => {
        const metrics = new AppMetrics();
        // The same backlog the readiness check reads, so both say the same thing.
        metrics.useInboxStats(() => inbox.backlog());
        return metrics;
      },
    },
  ],
  exports: [AppMetrics],
})
export class ObservabilityModule {}
