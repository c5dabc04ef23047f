import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { DataSource } from 'typeorm';
import { PARTNER_CONNECTION, type PartnerConnection } from './sandbox/partner-connection.providers';
import { CronJobsService } from './scheduling/cron-jobs.service';

/**
 * Ctrl-C / SIGTERM: stop the schedules and let the passes already running end (a redelivery
 * batch in hand, the start-up drain: CronJobsService.settle, bounded), finish the webhook
 * processing already started (its inbox rows must be marked), stop the embedded sandbox, then
 * close the database. One place, so the order is explicit: closing the database under a running
 * pass rolled its batch back and logged "The database connection is not open".
 */
@Injectable()
export class ShutdownCoordinator implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    private readonly webhooks: PartnerWebhookProcessingService,
    private readonly dataSource: DataSource,
    @Inject(PARTNER_CONNECTION) private readonly connection: PartnerConnection,
    private readonly cronJobs: CronJobsService,
  ) {}

  async onApplicationShutdown(signal?: string): Promise<void> {
    if (signal) this.logger.log(`${signal} received: finishing in-flight webhook processing`);
    await this.cronJobs.settle();
    await this.webhooks.drain();
    if (this.connection.sandbox) await this.connection.sandbox.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    if (signal) this.logger.log('stopped cleanly');
  }
}
