/** Request bodies the e2e suites send to the partner (or the sandbox) again and again. */

/** A user the sandbox verifies (source_of_funds present; provider-facts "Users"). */
export const individual = (extra: Record<string, unknown> = {}) => ({
  type: 'individual' as const,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  source_of_funds: 'salary',
  ...extra,
});

/** A WIRE recipient account (spec 2.3 account_details for WIRE). */
export const wireAccount = (accountNumber = '123456789') => ({
  account_type: 'WIRE',
  routing_number: '021000021',
  account_number: accountNumber,
  type: 'checking',
  bank_name: 'Sandbox Bank',
});
