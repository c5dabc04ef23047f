import {
  collectCreateUserErrors,
  collectUpdateUserErrors,
  collectVerificationErrors,
  validateCreateUserInput,
} from './user-input.rules';
import { PartnerLocalValidationError } from '../../errors/partner.errors';

const individual = (extra: Record<string, unknown> = {}) => ({
  type: 'individual',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  birth_date: '1990-12-10',
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
  metadata: { crm: 'c-1' },
  ...extra,
});
const fields = (errors: { field: string }[]) => errors.map((e) => e.field);

describe('user input validation (evidence §3: flat names, alpha-3, strict PUT)', () => {
  it('accepts a complete individual and a complete business with the partner names', () => {
    expect(collectCreateUserErrors(individual({ external_id: 'crm-1', tos_accepted_version: 'v3' }))).toEqual(
      [],
    );
    expect(
      collectCreateUserErrors({
        type: 'business',
        business_legal_name: 'Acme LLC',
        business_industry: ['software_publishers'],
        formation_date: '2015-03-01',
        formation_country: 'USA',
        ein: '123456789',
        account_purpose: 'operating_business_payments',
        additional_info: { has_us_bank_account: true, has_denied_bank_account: false },
        identifying_information: [
          { type: 'business_formation', documents: [{ file: 'data:application/pdf;base64,JVBERi0=' }] },
          { type: 'board_minutes', documents: [{ file: 'https://files.example.com/m.pdf' }] },
        ],
        associated_persons: [{ email: 'o@acme.example', birth_date: '1980-01-01', nationality: 'MEX' }],
      }),
    ).toEqual([]);
  });

  it('refuses the address object and other names the partner does not know, saying what to send', () => {
    const errors = collectCreateUserErrors(
      individual({ address: { city: 'Austin' }, date_of_birth: '1990-01-01', tax_id: '1', color: 'red' }),
    );
    expect(errors).toEqual([
      { field: 'address', message: expect.stringContaining('address_street') },
      { field: 'date_of_birth', message: expect.stringContaining('birth_date') },
      { field: 'tax_id', message: expect.stringContaining('ssn') },
      { field: 'color', message: expect.stringContaining('Unrecognized') },
    ]);
  });

  it('checks alpha-3 countries, calendar dates, business_industry as an array, metadata strings', () => {
    const errors = collectCreateUserErrors(
      individual({
        nationality: 'US',
        address_country: 'usa',
        birth_date: '1990-02-30',
        business_industry: 'technology',
        metadata: { vip: true },
        email: 'nope',
        first_name: ' ',
      }),
    );
    expect(fields(errors)).toEqual([
      'first_name',
      'email',
      'birth_date',
      'nationality',
      'address_country',
      'metadata.vip',
      'business_industry',
    ]);
    expect(errors.find((e) => e.field === 'business_industry')?.message).toMatch(/array/);
  });

  it('requires type, and the names of each type', () => {
    expect(fields(collectCreateUserErrors({ first_name: 'A' }))).toEqual(['type']);
    expect(fields(collectCreateUserErrors({ type: 'individual' }))).toEqual(['first_name', 'last_name']);
    expect(fields(collectCreateUserErrors({ type: 'business' }))).toEqual(['business_legal_name']);
  });

  it('account_purpose: a value the evidence shows only for the other type is refused (DRIFT-18)', () => {
    expect(fields(collectCreateUserErrors(individual({ account_purpose: 'operating_a_company' })))).toEqual([
      'account_purpose',
    ]);
    expect(
      fields(
        collectCreateUserErrors({
          type: 'business',
          business_legal_name: 'A',
          account_purpose: 'manage_personal_funds',
        }),
      ),
    ).toEqual(['account_purpose']);
    expect(collectUpdateUserErrors({ account_purpose: 'manage_personal_funds' }, 'business')).toHaveLength(1);
    expect(collectUpdateUserErrors({ account_purpose: 'manage_personal_funds' })).toEqual([]); // type unknown
  });

  it('nested lists name the exact element', () => {
    const errors = collectCreateUserErrors(
      individual({
        identifying_information: [{ documents: [{ file: 'http://plain.example/x.pdf' }] }],
        associated_persons: [{ email: 'ok@x.io' }, { nationality: 'MX' }],
        additional_info: { has_us_bank_account: 'yes' },
      }),
    );
    expect(fields(errors)).toEqual([
      'identifying_information[0].type',
      'identifying_information[0].documents[0].file',
      'associated_persons[1].nationality',
      'additional_info.has_us_bank_account',
    ]);
  });

  it('PUT is strict: type and external_id are refused, unknown keys too; an empty body is fine', () => {
    expect(collectUpdateUserErrors({})).toEqual([]);
    expect(collectUpdateUserErrors({ type: 'business', external_id: 'x', registered_address: {} })).toEqual([
      { field: 'type', message: expect.stringContaining('PUT') },
      { field: 'external_id', message: expect.stringContaining('create only') },
      { field: 'registered_address', message: expect.stringContaining('read-only') },
    ]);
    expect(collectUpdateUserErrors({ last_name: 'Byron', metadata: { a: '1' } })).toEqual([]);
  });

  it('throws one PartnerLocalValidationError naming every field', () => {
    let error: unknown;
    try {
      validateCreateUserInput(individual({ nationality: 'US', address: {} }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PartnerLocalValidationError);
    expect(fields((error as PartnerLocalValidationError).fieldErrors)).toEqual(['nationality', 'address']);
  });

  it('verifications: type embedded-link or api, an optional http(s) redirect_uri; `method` is named', () => {
    expect(
      collectVerificationErrors({ type: 'embedded-link', redirect_uri: 'https://app.example/back' }),
    ).toEqual([]);
    expect(collectVerificationErrors({ type: 'api' })).toEqual([]);
    expect(fields(collectVerificationErrors({ method: 'api', redirect_uri: 'nope' }))).toEqual([
      'type',
      'redirect_uri',
      'method',
    ]);
  });

  it('a hostile email is refused at once, naming the field (no backtracking regex)', () => {
    for (const email of [`a@${'.'.repeat(50_000)}@`, `a@${'.'.repeat(200)}@`]) {
      const started = performance.now();
      const error = (() => {
        try {
          validateCreateUserInput(individual({ email }));
        } catch (e) {
          return e;
        }
      })();
      // A generous bound: a backtracking regex needs seconds for the 50,000-character value.
      expect(performance.now() - started).toBeLessThan(500);
      expect(error).toBeInstanceOf(PartnerLocalValidationError);
      expect((error as PartnerLocalValidationError).fieldErrors).toEqual([
        { field: 'email', message: expect.stringMatching(/^must be an email address/) },
      ]);
    }
  });
});
