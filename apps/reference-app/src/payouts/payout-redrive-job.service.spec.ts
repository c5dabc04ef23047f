/**
 * The payouts feature's own re-drive schedule: registered under its name from the configuration,
 * and at shutdown stopped, its running pass told to stop (the signal) and awaited before the
 * database closes (ScheduledJobs.settle). The pass is a promise the test ends itself; the registry
 * is @nestjs/schedule's.
 */
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../config/app.config';
import { ScheduledJobs } from '../scheduling/scheduled-jobs.service';
import { PayoutRedriveJob } from './payout-redrive-job.service';
import { PAYOUT_REDRIVE_JOB, type PayoutRedriveService } from './payout-redrive.service';

describe('PayoutRedriveJob', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('schedules the pass under its name, and shutdown aborts and awaits the pass in flight', async () => {
    let release!: () => void;
    const signals: AbortSignal[] = [];
    const ticks: Array<Date | undefined> = [];
    const redrive = {
      runOnce: (options: { tick?: Date; signal?: AbortSignal }) => {
        signals.push(options.signal!);
        ticks.push(options.tick);
        return new Promise((resolve) => (release = () => resolve({ ran: true })));
      },
    } as unknown as PayoutRedriveService;
    const registry = new SchedulerRegistry();
    const jobs = new ScheduledJobs(registry);
    const config = { redrive: { cron: '45 * * * * *' } } as AppConfig;
    const job = new PayoutRedriveJob(config, jobs, redrive);
    job.onApplicationBootstrap();
    const cron = registry.getCronJob(PAYOUT_REDRIVE_JOB);
    expect(cron.cronTime.source).toBe('45 * * * * *');

    void cron.fireOnTick();
    await new Promise((r) => setTimeout(r, 20));
    expect(ticks).toHaveLength(1);
    expect(ticks[0]).toBeInstanceOf(Date); // the tick it serves, for the job lock
    let closed = false;
    const shutdown = jobs.settle().then(() => (closed = true));
    try {
      await new Promise((r) => setTimeout(r, 50));
      expect(signals[0].aborted).toBe(true);
      expect(closed).toBe(false); // still waiting for the pass
      expect(registry.doesExist('cron', PAYOUT_REDRIVE_JOB)).toBe(false);
    } finally {
      release();
    }
    await shutdown;
    expect(closed).toBe(true);
  });
});
