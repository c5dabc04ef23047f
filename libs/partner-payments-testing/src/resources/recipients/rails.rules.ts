import { LATAM_RAILS } from './latam-rails.rules';
import { ACH, SPEI, SWIFT, WALLET, WIRE, type RailSpec } from './recipient-rails.rules';

/** Every account_type a recipient may have, with its rules (evidence §4). */
export const RAILS: Record<string, RailSpec> = {
  WIRE,
  ACH,
  INSTANT_PAY: ACH,
  SWIFT,
  SPEI,
  WALLET,
  ...LATAM_RAILS,
};

export const ACCOUNT_TYPES: readonly string[] = Object.keys(RAILS);
