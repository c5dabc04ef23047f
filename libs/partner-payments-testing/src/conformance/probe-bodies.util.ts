/**
 * Request bodies the probes send: valid per the evidence (flat users with alpha-3 countries,
 * recipients with rail data under `account` and alpha-2 countries), tagged with the run id so
 * whatever a run leaves at the partner can be found again (metadata is a string map, spec 2.5).
 */

/** An individual with every field the `usa-virtual-accounts` product asks (evidence §3), so verification starts. */
export function fixtureUser(runId: string): Record<string, unknown> {
  return {
    type: 'individual',
    first_name: 'Conformance',
    last_name: 'Probe',
    email: 'conformance.probe@example.com',
    phone: '+15555550100',
    birth_date: '1990-01-15',
    nationality: 'USA',
    address_street: '1 Main St',
    address_city: 'Austin',
    address_state: 'TX',
    address_zip_code: '78701',
    address_country: 'USA',
    ssn: '123456789',
    source_of_funds: 'salary',
    account_purpose: 'personal_or_living_expenses',
    occupation: 'engineer',
    metadata: { conformance_run: runId },
  };
}

/** A US address as recipients take it (alpha-2 country, evidence §4 [T3r DRIFT-26]). */
export const recipientAddress = () => ({
  street_name: '1 Main St',
  city: 'Austin',
  state: 'TX',
  postal_code: '78701',
  country: 'US',
});

/** WIRE: account_number, routing_number, bank_name, bank_address object; address and email (evidence §4). */
export function fixtureRecipient(
  userId: string,
  runId: string,
  account: Record<string, unknown> = wireAccount(),
): Record<string, unknown> {
  return {
    user_id: userId,
    type: 'individual',
    first_name: 'Payee',
    last_name: 'Probe',
    email: 'payee.probe@example.com',
    address: recipientAddress(),
    account,
    metadata: { conformance_run: runId },
  };
}

export const wireAccount = () => ({
  account_type: 'WIRE',
  routing_number: '021000021',
  account_number: '4000123456',
  type: 'checking',
  bank_name: 'Probe Bank',
  bank_address: {
    street_name: '270 Park Ave',
    city: 'New York',
    state: 'NY',
    postal_code: '10017',
    country: 'US',
  },
});

/** WALLET: address, network, token (evidence §4 [T2s Enums.cs]); a well-known public Solana address. */
export const walletAccount = () => ({
  account_type: 'WALLET',
  network: 'solana',
  token: 'USDC',
  address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
});

/** SWIFT: account_number (an IBAN fits), swift_code, bank_name, bank_address object (evidence §4). */
export const swiftAccount = () => ({
  account_type: 'SWIFT',
  account_number: 'ES9121000418450200051332',
  swift_code: 'CAIXESBBXXX',
  bank_name: 'CaixaBank',
  bank_address: {
    street_name: 'Calle Pintor Sorolla 2',
    city: 'Valencia',
    state: 'Valencia',
    postal_code: '46002',
    country: 'ES',
  },
});
