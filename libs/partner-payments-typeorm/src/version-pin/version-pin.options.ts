import { CronTime } from 'cron';
import type { OptionProblem } from '../payouts/payout-outbox.options';

/** The `versionPin` option of PartnerPaymentsTypeOrmModule: the opt-in version-pin job. */
export interface PartnerVersionPinOptions {
  /** The version to pin the account to (spec 9.1: a date string such as `2026-04-14`). */
  version: string;
  /**
   * The account's identifier (your client UUID, else your client id): the pin row is keyed by its
   * digest (partnerVersionPinKey), never by the identifier. 1 to 256 characters.
   */
  account: string;
  /**
   * When the job pins, a cron expression with seconds (`cron` syntax, this process's time zone).
   * Default `0 15 3 * * *` (daily at 03:15).
   */
  cron?: string;
}

export interface PartnerVersionPinResolvedOptions {
  version: string;
  account: string;
  cron: string;
}

export const DEFAULT_VERSION_PIN_CRON = '0 15 3 * * *';
const VERSION = /^\d{4}-\d{2}-\d{2}$/;
const MAX_ACCOUNT_LENGTH = 256;

/** Validates `versionPin`; the first problem found, naming `versionPin.<field>`, or the options. */
export function resolveVersionPinOptions(
  options: PartnerVersionPinOptions,
): PartnerVersionPinResolvedOptions | OptionProblem {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return ['versionPin', 'must be an object: { version, account, cron? }'];
  const { version, account } = options;
  if (typeof version !== 'string' || !VERSION.test(version))
    return ['versionPin.version', `must be a date string like '2026-04-14', got ${JSON.stringify(version)}`];
  if (typeof account !== 'string' || account.trim() === '' || account.length > MAX_ACCOUNT_LENGTH)
    // The identifier is half of the /auth pair: never echoed in the message.
    return ['versionPin.account', `must be a non-empty string of at most ${MAX_ACCOUNT_LENGTH} characters`];
  const cron = options.cron ?? DEFAULT_VERSION_PIN_CRON;
  if (typeof cron !== 'string') return ['versionPin.cron', 'must be a cron expression string'];
  try {
    new CronTime(cron);
  } catch (error) {
    return ['versionPin.cron', `is not a valid cron expression (${(error as Error).message}): ${cron}`];
  }
  return { version, account, cron };
}
