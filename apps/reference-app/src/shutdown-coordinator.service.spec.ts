import { Logger } from '@nestjs/common';
import type { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import type { DataSource } from 'typeorm';
import type { PartnerConnection } from './sandbox/partner-connection.providers';
import type { CronJobsService } from './scheduling/cron-jobs.service';
import { ShutdownCoordinator } from './shutdown-coordinator.service';

describe('ShutdownCoordinator', () => {
  afterEach(() => jest.restoreAllMocks());

  it('lets the running scheduled passes end, then the webhook processing, and only then closes the database', async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const order: string[] = [];
    const step = (name: string) => async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push(name);
    };
    const coordinator = new ShutdownCoordinator(
      { drain: step('webhook processing drained') } as unknown as PartnerWebhookProcessingService,
      { isInitialized: true, destroy: step('database closed') } as unknown as DataSource,
      { sandbox: { close: step('sandbox closed') } } as unknown as PartnerConnection,
      { settle: step('scheduled passes settled') } as unknown as CronJobsService,
    );
    await coordinator.onApplicationShutdown('SIGTERM');
    expect(order).toEqual([
      'scheduled passes settled',
      'webhook processing drained',
      'sandbox closed',
      'database closed',
    ]);
  });
});
