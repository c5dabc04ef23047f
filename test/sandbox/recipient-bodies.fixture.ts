/** Valid POST /v1/recipients bodies per rail (evidence §4), shared by the sandbox recipient suites. */
import { usAddress, wireRecipient } from './sandbox.fixture';

/** evidence §4 [T3r DRIFT-31], §11 N29: PostgreSQL text form, e.g. 2026-05-28 00:52:49.879228+00, the fraction 0-6 digits. */
export const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?\+00$/;
/** Real, well-known public addresses (the USDT contract on TRON, USDC on Solana). */
export const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const SOLANA_ADDRESS = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const esAddress = {
  street_name: 'Gran Via 1',
  city: 'Madrid',
  state: 'Madrid',
  postal_code: '28013',
  country: 'ES',
};

export type Body = Record<string, unknown>;

/** One valid body per rail the evidence confirms (201 and read back at the partner, evidence §4). */
export function railBodies(userId: string): Record<string, Body> {
  const achAccount = (type: string) => ({
    account_type: type,
    routing_number: '021000021',
    account_number: '000123456789',
    type: 'checking',
    bank_name: 'Sandbox Bank',
    bank_address: '270 Park Ave, New York, NY 10017, US',
    doc_type: 'id',
    doc_number: 'D1234567',
  });
  const names = { user_id: userId, first_name: 'Rosa', last_name: 'Payee' };
  return {
    WIRE: wireRecipient(userId),
    ACH: { ...names, email: 'rosa@example.com', address: usAddress(), account: achAccount('ACH') },
    INSTANT_PAY: {
      ...names,
      email: 'rosa@example.com',
      address: usAddress(),
      account: achAccount('INSTANT_PAY'),
    },
    SWIFT: {
      ...names,
      type: 'business',
      company_name: 'Acme Iberia SL',
      email: 'ap@acme.example',
      phone: '+34911234567',
      address: esAddress,
      account: {
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
      },
    },
    SPEI: { ...names, account: { account_type: 'SPEI', clabe: '002010077777777771', bank_name: 'Banamex' } },
    // evidence §4 [T2s]: no `type` at all, read back as individual
    WALLET: {
      ...names,
      account: { account_type: 'WALLET', address: TRON_ADDRESS, network: 'tron', token: 'USDT' },
    },
    GTQ: {
      ...names,
      account: {
        account_type: 'GTQ',
        account_number: '1234567890',
        bank_code: '001',
        bank_name: 'Banco Industrial',
        doc_type: 'dpi',
        doc_number: '1234567890101',
        doc_country_code: 'GT',
      },
    },
  };
}
