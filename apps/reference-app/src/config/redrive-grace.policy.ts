import { partnerMinimumRedriveGraceMs } from '@partner-payments/typeorm';
import type { EnvironmentVariables } from './environment.rules';

/**
 * The longest one logical partner call can take (the package's rule, with the library's default
 * Retry-After cap): a pending request younger than this may still get its answer, so the re-drive
 * leaves it alone, and PartnerPaymentsTypeOrmModule refuses a shorter `payouts.graceMs` at boot.
 */
export function minimumRedriveGraceMs(timeoutMs: number, maxRetries: number): number {
  return partnerMinimumRedriveGraceMs(timeoutMs, maxRetries);
}

/**
 * The outbox re-drive's grace period and maximum age, checked together: the
 * grace must exceed one full partner call and stay shorter than the maximum age. Problems are
 * added to `problems`, naming PAYOUT_REDRIVE_GRACE_SECONDS.
 */
export function redriveTimes(
  vars: Pick<EnvironmentVariables, 'PAYOUT_REDRIVE_GRACE_SECONDS' | 'PAYOUT_REDRIVE_MAX_AGE_HOURS'>,
  timeoutMs: number,
  maxRetries: number,
  defaults: { graceSeconds: number; maxAgeHours: number },
  problems: Array<{ variable: string; message: string }>,
): { graceSeconds: number; maxAgeHours: number } {
  // Unset: the default (300 s), or longer when the partner settings make one call longer than that.
  const minGraceSeconds = Math.ceil(minimumRedriveGraceMs(timeoutMs, maxRetries) / 1000);
  const graceSeconds = vars.PAYOUT_REDRIVE_GRACE_SECONDS ?? Math.max(defaults.graceSeconds, minGraceSeconds);
  const maxAgeHours = vars.PAYOUT_REDRIVE_MAX_AGE_HOURS ?? defaults.maxAgeHours;
  const graceInputs = [
    'PARTNER_TIMEOUT_MS',
    'PARTNER_MAX_RETRIES',
    'PAYOUT_REDRIVE_GRACE_SECONDS',
    'PAYOUT_REDRIVE_MAX_AGE_HOURS',
  ];
  if (!problems.some((p) => graceInputs.includes(p.variable))) {
    if (graceSeconds < minGraceSeconds) {
      problems.push({
        variable: 'PAYOUT_REDRIVE_GRACE_SECONDS',
        message: `must be at least ${minGraceSeconds} (one full partner call: two token calls and the create, each with PARTNER_MAX_RETRIES retries of PARTNER_TIMEOUT_MS and Retry-After waits)`,
      });
    } else if (graceSeconds >= maxAgeHours * 3600) {
      // A request is due at its grace and given up at its maximum age: with no time between them the
      // re-drive would mark every request needs_review without ever re-sending it.
      problems.push({
        variable: 'PAYOUT_REDRIVE_GRACE_SECONDS',
        message: `must be shorter than PAYOUT_REDRIVE_MAX_AGE_HOURS (${maxAgeHours * 3600} s; it is ${graceSeconds} s), with room for a few PAYOUT_REDRIVE_CRON runs between them`,
      });
    }
  }
  return { graceSeconds, maxAgeHours };
}
