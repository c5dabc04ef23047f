import type { CronTime } from 'cron';
import { TICK_SKEW_MS } from './job-lock.service';

/** How far back a firing is matched to its schedule: far beyond any timer's lateness, short of a day's work. */
const LATENESS_BOUND_MS = 30_000;

/**
 * The scheduled time a cron firing at `now` serves, to give PartnerJobLockService.runExclusive as
 * `tick`: the latest time of the schedule at or before `now` (plus TICK_SKEW_MS, for a timer or
 * clock a little early). Every replica then names the same tick even when its timer fires late,
 * so a replica whose timer fires after another replica's short run ended skips the tick instead
 * of running it again; the wall clock's second would name a tick fired 1.1 s late as the next
 * second's. With no scheduled time within LATENESS_BOUND_MS (a run started by hand), the second
 * of `now`.
 */
export function partnerScheduledTick(cronTime: CronTime, now: Date = new Date()): Date {
  const limit = now.getTime() + TICK_SKEW_MS;
  let tick = cronTime.getNextDateFrom(new Date(now.getTime() - LATENESS_BOUND_MS)).toJSDate();
  if (tick.getTime() > limit) return new Date(Math.floor(now.getTime() / 1000) * 1000);
  for (;;) {
    const next = cronTime.getNextDateFrom(tick).toJSDate();
    if (next.getTime() > limit) return tick;
    tick = next;
  }
}
