import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsObject,
  IsString,
  IsUUID,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  buildMessage,
} from 'class-validator';

/** A payout amount (POST /payouts, GET /payouts/preview): positive, at most 15 digits and 2 decimals. */
export const PAYOUT_AMOUNT = /^(?=.*[1-9])\d{1,15}(\.\d{1,2})?$/;
export const PAYOUT_AMOUNT_MESSAGE =
  'amount must be a positive decimal string with at most 2 decimals, like "100.00"';

/**
 * extra_info.memo holds at most 255 characters (evidence §6 [T1 ExecutePayoutService]), counted in
 * UTF-16 code units (`length`) as the module counts them (libs/partner-payments payouts.service.ts
 * MEMO_MAX). class-validator's Length counts a surrogate pair, and a character with its variation
 * selector, as one, so a memo of emoji it passes would be refused by the module after the request
 * row was stored: hence the rule below.
 */
export const PAYOUT_MEMO_MAX = 255;

/** A string of min..max UTF-16 code units (the module's count, see PAYOUT_MEMO_MAX). */
function HasUtf16Length(min: number, max: number): PropertyDecorator {
  return ValidateBy({
    name: 'hasUtf16Length',
    constraints: [min, max],
    validator: {
      // Not a string: IsString reports it, once.
      validate: (value: unknown) => typeof value !== 'string' || (value.length >= min && value.length <= max),
      // Never the value itself: a memo is free text the user typed.
      defaultMessage: buildMessage(
        (each) => `${each}$property must be ${min} to ${max} characters long (UTF-16 code units)`,
      ),
    },
  });
}

/**
 * extra_info of POST /payouts: the memo only. evidence §6 [T1 ExecutePayoutService] also names
 * `internal_notes`, with no rule and no use the app knows of; it is refused (an unknown field) rather
 * than stored and sent without a reason. Add it here, in the fingerprint and in the body sent if you
 * need it.
 */
export class PayoutExtraInfoDto {
  /**
   * Required by the partner on a WIRE payout from an account at the ACT bank (evidence §6 [T1
   * REVISION-DOCS §4]; `bank_d` of the contract's placeholders in the sandbox). Not checked here:
   * the app keeps no recipients, so it cannot know the rail without a partner call; the partner's
   * 400 names `extra_info.memo`. Null is refused, as everywhere in this body (the partner counts
   * null as a type error, evidence §6 [T3r DRIFT-43]).
   */
  @ApiPropertyOptional({
    type: 'string',
    minLength: 1,
    maxLength: PAYOUT_MEMO_MAX,
    description:
      'Required by the partner on a WIRE payout from an account at the ACT bank; never answered back',
  })
  @ValidateIf((o: PayoutExtraInfoDto) => o.memo !== undefined)
  @IsString()
  @HasUtf16Length(1, PAYOUT_MEMO_MAX)
  memo?: string;
}

/** Body of POST /payouts. Validated by the global ValidationPipe: a 400 names the field. */
export class CreatePayoutDto {
  /**
   * UUIDs (spec 2.3, 4.6). Checked here because the partner answers a malformed id in the path
   * with 403 "route not matched" (spec 7.5), which would read as our credentials' fault.
   */
  @ApiProperty({ type: 'string', format: 'uuid' })
  @IsUUID()
  virtual_account_id!: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  @IsUUID()
  recipient_id!: string;

  /** provider-facts: a gross decimal string ("100.00"), never a float (cents would be lost). */
  @ApiProperty({ type: 'string', pattern: PAYOUT_AMOUNT.source, example: '100.00' })
  @IsString()
  @Matches(PAYOUT_AMOUNT, { message: PAYOUT_AMOUNT_MESSAGE })
  amount!: string;

  @ApiProperty({ type: 'string', pattern: '^[A-Z]{3}$', example: 'USD' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code in capitals, like "USD"' })
  currency!: string;

  /**
   * Optional; when present an object (null refused) whose unknown keys are refused by the
   * ValidationPipe (whitelist), named `extra_info.<key>`.
   */
  @ApiPropertyOptional({ type: () => PayoutExtraInfoDto })
  @ValidateIf((o: CreatePayoutDto) => o.extra_info !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => PayoutExtraInfoDto)
  extra_info?: PayoutExtraInfoDto;
}

/**
 * What the API answers for a stored payout (POST /payouts, GET /payouts/:id). Never the memo: free
 * text the user typed, kept only on the request row for re-sends; the partner's own GET
 * /v1/payouts/{id} has it (evidence §6).
 */
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
