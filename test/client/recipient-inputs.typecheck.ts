/**
 * Compile-time checks of the recipient input union (evidence §4), typechecked by `npm run typecheck`
 * (never run): what the partner refuses should not compile. Each @ts-expect-error fails the
 * typecheck if the line ever compiles.
 */
import type { CreatePartnerRecipientInput } from '@partner-payments/nestjs/models';

const user_id = '0b7d9a55-7c1d-4c1e-9d8a-2f1a3c4b5d6e';
const address = { street_name: '1 Main St', city: 'Austin', country: 'US' };

export const ok: CreatePartnerRecipientInput[] = [
  {
    user_id,
    first_name: 'A',
    last_name: 'B',
    email: 'a@b.example',
    address,
    account: {
      account_type: 'ACH',
      account_number: '1234',
      routing_number: '021000021',
      bank_name: 'X',
      bank_address: '1 Main St',
    },
  },
  { user_id, account: { account_type: 'WALLET', address: 'T…', network: 'tron', token: 'USDT' } },
  { user_id, account: { account_type: 'SPEI', clabe: '002010077777777771', bank_name: 'Banamex' } },
];

export const refused: CreatePartnerRecipientInput[] = [
  // @ts-expect-error tron carries only USDT
  { user_id, account: { account_type: 'WALLET', address: 'T…', network: 'tron', token: 'USDC' } },
  {
    user_id,
    email: 'a@b.example',
    address,
    account: {
      account_type: 'WIRE',
      account_number: '1',
      routing_number: '1',
      bank_name: 'X',
      // @ts-expect-error WIRE needs bank_address as an object
      bank_address: 'x',
    },
  },
  // @ts-expect-error SWIFT needs a phone
  {
    user_id,
    email: 'a@b.example',
    address,
    account: {
      account_type: 'SWIFT',
      account_number: 'ES91',
      swift_code: 'CAIXESBB',
      bank_name: 'X',
      bank_address: address,
    },
  },
  {
    user_id,
    email: 'a@b.example',
    address,
    account: {
      account_type: 'ACH',
      account_number: '1234',
      routing_number: '021000021',
      bank_name: 'X',
      bank_address: '1 Main St',
      // @ts-expect-error the partner drops an ACH account's country (evidence §11 N26)
      country: 'US',
    },
  },
  // @ts-expect-error the old flat body has no account
  { user_id, account_type: 'WIRE', routing_number: '021000021' },
];
