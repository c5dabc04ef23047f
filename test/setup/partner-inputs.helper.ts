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

/** A structured US address (recipients take alpha-2 countries, evidence §4). */
export const usAddress = () => ({
  street_name: '1 Main St',
  city: 'Austin',
  state: 'TX',
  postal_code: '78701',
  country: 'US',
});

/** A WIRE recipient account (evidence §4: account_number, routing_number, bank_name, bank_address object). */
export const wireAccount = (accountNumber = '123456789') => ({
  account_type: 'WIRE' as const,
  routing_number: '021000021',
  account_number: accountNumber,
  type: 'checking',
  bank_name: 'Sandbox Bank',
  bank_address: {
    street_name: '270 Park Ave',
    city: 'New York',
    state: 'NY',
    postal_code: '10017',
    country: 'US',
  },
});

/** A WIRE recipient body: beside the account, WIRE needs a top-level address object and an email (evidence §4). */
export const wireRecipient = (userId: string, extra: Record<string, unknown> = {}) => ({
  user_id: userId,
  type: 'individual' as const,
  first_name: 'Bob',
  last_name: 'Payee',
  email: 'bob@payee.example',
  address: usAddress(),
  account: wireAccount(),
  ...extra,
});
