import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs';
import { DataSource } from 'typeorm';
import { PARTNER_CONNECTION, type PartnerConnection } from './sandbox/partner-connection.providers';

/**
 * Ctrl-C / SIGTERM: finish the webhook processing already started (its inbox rows must be marked),
 * stop the embedded sandbox, then close the database. One place, so the order is explicit.
 */
@Injectable()
export class ShutdownCoordinator implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    private readonly webhooks: PartnerWebhookProcessingService,
    private readonly dataSource: DataSource,
    @Inject(PARTNER_CONNECTION) private readonly connection: PartnerConnection,
  ) {}

  async onApplicationShutdown(signal?: string): Promise<void> {
    if (signal) this.logger.log(`${signal} received: finishing in-flight webhook processing`);
    await this.webhooks.drain();
    if (this.connection.sandbox) await this.connection.sandbox.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    if (signal) this.logger.log('stopped cleanly');
  }
}
