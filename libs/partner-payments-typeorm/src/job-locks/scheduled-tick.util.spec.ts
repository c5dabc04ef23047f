import { CronTime } from 'cron';
import { partnerScheduledTick } from './scheduled-tick.util';

const at = (iso: string) => new Date(iso);

describe('partnerScheduledTick: the scheduled time a firing serves', () => {
  const everyMinuteAt30 = new CronTime('30 * * * * *', 'UTC');

  it('names the scheduled second whether the timer fired on time, late by over a second, or a little early', () => {
    const tick = '2026-11-27T14:40:30.000Z';
    for (const fired of ['2026-11-27T14:40:30.004Z', '2026-11-27T14:40:31.100Z', '2026-11-27T14:40:52.000Z'])
      expect(partnerScheduledTick(everyMinuteAt30, at(fired)).toISOString()).toBe(tick);
    // A timer (or a replica's clock) up to TICK_SKEW_MS early still serves the coming tick.
    expect(partnerScheduledTick(everyMinuteAt30, at('2026-11-27T14:40:29.700Z')).toISOString()).toBe(tick);
  });

  it('on a schedule of every second, a late firing is the last second due', () => {
    const everySecond = new CronTime('* * * * * *', 'UTC');
    expect(partnerScheduledTick(everySecond, at('2026-11-27T14:40:31.100Z')).toISOString()).toBe(
      '2026-11-27T14:40:31.000Z',
    );
  });

  it('with no scheduled time in the last 30 s (a daily job run off schedule), the second of now', () => {
    const daily = new CronTime('0 0 3 * * *', 'UTC');
    expect(partnerScheduledTick(daily, at('2026-11-27T14:40:31.100Z')).toISOString()).toBe(
      '2026-11-27T14:40:31.000Z',
    );
    expect(partnerScheduledTick(daily, at('2026-11-27T03:00:01.300Z')).toISOString()).toBe(
      '2026-11-27T03:00:00.000Z',
    );
  });
});
