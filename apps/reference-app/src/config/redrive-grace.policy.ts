import type { EnvironmentVariables } from './environment.rules';

/** The library's cap on a Retry-After wait between two attempts (its default retry options). */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * The longest one logical partner call can take (besides waiting for the client's rate limiter):
 * a token call, the call answered 401, a second token call (spec 5.7: re-authenticate and retry
 * once, which uses no retry), then the call again; each token call and the call make up to
 * `maxRetries` retries of `timeoutMs` with a capped Retry-After wait before each retry:
 * 2 x ((R + 1) x T + R x 30 s) for the token calls, (R + 2) x T + R x 30 s for the call. A pending
 * request younger than this may still get its answer, so the re-drive leaves it alone (a re-send
 * racing it would only be answered 409 or replayed: same key, but the caller would see a 409).
 */
export function minimumRedriveGraceMs(timeoutMs: number, maxRetries: number): number {
  return (3 * maxRetries + 4) * timeoutMs + 3 * maxRetries * MAX_RETRY_AFTER_MS;
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
