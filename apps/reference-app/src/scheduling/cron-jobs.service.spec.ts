/**
 * Shutdown waits for the scheduled passes already running (review finding: the database was closed
 * under the start-up drain's batch in flight). The race needs a pass that is exactly mid-batch when
 * the app closes, which a real drain does not hold still for, so the passes here are promises the
 * test ends itself; the schedules are the real @nestjs/schedule registry.
 */
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { PartnerPaymentsClient } from '@partner-payments/nestjs';
import type { StartupState } from '../health/startup-state.service';
import type { PartnerVersionPin } from '@partner-payments/typeorm';
import { CronJobsService } from './cron-jobs.service';
import { ScheduledJobs } from './scheduled-jobs.service';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A service whose start-up drain runs until `drain.resolve()`; the partner calls end at once. */
function serviceWithDrain(drain: Promise<void>) {
  const registry = new SchedulerRegistry();
  const jobs = new ScheduledJobs(registry);
  // A feature's start pass, as the webhooks feature registers its inbox drain.
  jobs.addStartPass('inbox-redelivery', () => drain);
  const service = new CronJobsService(
    jobs,
    { pin: async () => undefined } as unknown as PartnerVersionPin,
    { auth: { getToken: async () => 'token' } } as unknown as PartnerPaymentsClient,
    { markFinished: () => undefined } as unknown as StartupState,
  );
  return { service, registry, jobs };
}

describe('CronJobsService.settle', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('waits for a pass still running (the start-up drain) before it resolves', async () => {
    const drain = deferred();
    const { service } = serviceWithDrain(drain.promise);
    const warmedUp = service.warmUp();
    let settled = false;
    const settling = service.settle(5_000).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    drain.resolve();
    await settling;
    await warmedUp;
    expect(settled).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('gives up after its bound, saying how many passes still run', async () => {
    const { service } = serviceWithDrain(new Promise<void>(() => undefined));
    void service.warmUp();
    const started = Date.now();
    await service.settle(100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/1 scheduled pass\(es\) still running after 100 ms/),
    );
  });

  it('resolves at once with nothing running, and stops the schedules', async () => {
    const { service, registry, jobs } = serviceWithDrain(Promise.resolve());
    jobs.add('inbox-redelivery', '0 0 1 1 *', async () => undefined);
    const job = registry.getCronJob('inbox-redelivery');
    jest.spyOn(job, 'stop');
    await service.settle(5_000);
    expect(job.stop).toHaveBeenCalled();
    expect(registry.doesExist('cron', 'inbox-redelivery')).toBe(false);
  });
});
