import { IsString, IsUUID, Matches } from 'class-validator';

/** A payout amount (POST /payouts, GET /payouts/preview): positive, at most 15 digits and 2 decimals. */
export const PAYOUT_AMOUNT = /^(?=.*[1-9])\d{1,15}(\.\d{1,2})?$/;
export const PAYOUT_AMOUNT_MESSAGE =
  'amount must be a positive decimal string with at most 2 decimals, like "100.00"';

/** Body of POST /payouts. Validated by the global ValidationPipe: a 400 names the field. */
export class CreatePayoutDto {
  /**
   * UUIDs (spec 2.3, 4.6). Checked here because the partner answers a malformed id in the path
   * with 403 "route not matched" (spec 7.5), which would read as our credentials' fault.
   */
  @IsUUID()
  virtual_account_id!: string;

  @IsUUID()
  recipient_id!: string;

  /** provider-facts: a gross decimal string ("100.00"), never a float (cents would be lost). */
  @IsString()
  @Matches(PAYOUT_AMOUNT, { message: PAYOUT_AMOUNT_MESSAGE })
  amount!: string;

  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code in capitals, like "USD"' })
  currency!: string;
}

/** What the API answers for a stored payout. */
export interface PayoutResponse {
  payout_id: string;
  status: string;
  previous_status: string | null;
  virtual_account_id: string | null;
  recipient_id: string | null;
  user_id: string | null;
  amount: string | null;
  currency: string | null;
  idempotency_key: string | null;
  reference_number: string | null;
  error_code: string | null;
  review_reason: string | null;
  last_source: string;
  created_at: string;
  updated_at: string;
  last_checked_at: string | null;
  version: number;
}
