/**
 * A feature's job registered through ScheduledJobs: at shutdown its running pass is told to stop
 * (the signal it was given) and awaited, bounded, before settle resolves, so the database is not
 * closed under it. The passes are promises the test ends itself; the registry is @nestjs/schedule's.
 */
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ScheduledJobs } from './scheduled-jobs.service';

/** A pass that records its signal and ends only when the test releases it. */
function heldPass() {
  const signals: AbortSignal[] = [];
  let release!: () => void;
  const ended = new Promise<void>((resolve) => (release = resolve));
  const task = (signal: AbortSignal) => {
    signals.push(signal);
    return ended;
  };
  return { signals, release, task };
}

describe('ScheduledJobs at shutdown', () => {
  let error: jest.SpyInstance;
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it("aborts a feature's running cron pass and waits for it before settle resolves", async () => {
    const registry = new SchedulerRegistry();
    const jobs = new ScheduledJobs(registry);
    const pass = heldPass();
    const ticks: Date[] = [];
    jobs.add('feature-job', '0 0 1 1 *', (tick, signal) => {
      ticks.push(tick);
      return pass.task(signal);
    });
    void registry.getCronJob('feature-job').fireOnTick();
    let settled = false;
    let settling: Promise<unknown> = Promise.resolve();
    try {
      await new Promise((r) => setTimeout(r, 20));
      expect(ticks).toHaveLength(1);
      expect(pass.signals).toHaveLength(1);
      expect(pass.signals[0].aborted).toBe(false);

      jobs.beforeApplicationShutdown();
      expect(pass.signals[0].aborted).toBe(true);
      expect(registry.doesExist('cron', 'feature-job')).toBe(false);
      settling = jobs.settle(5_000).then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false); // still waiting for the pass in flight
    } finally {
      pass.release();
    }
    await settling;
    expect(settled).toBe(true);
  });

  it('aborts a start pass too, and logs a pass that fails once stopped as stopped, not failed', async () => {
    const jobs = new ScheduledJobs(new SchedulerRegistry());
    const signals: AbortSignal[] = [];
    jobs.addStartPass('feature-start', (signal) => {
      signals.push(signal);
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted before its next batch'))),
      );
    });
    const started = jobs.runStartPasses().then(() => 'ended' as const);
    await jobs.settle(1_000);
    const bound = new Promise<'still running'>((r) => setTimeout(() => r('still running'), 1_000));
    expect(await Promise.race([started, bound])).toBe('ended');
    expect(signals[0].aborted).toBe(true);
    expect(error).not.toHaveBeenCalled();
  });
});
