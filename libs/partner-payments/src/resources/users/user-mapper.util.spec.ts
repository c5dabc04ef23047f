import { parsePartnerTimestamp } from '../shared/timestamp.util';
import { toPartnerUser, toPartnerUserUpdateResult, toPartnerVerification } from './user-mapper.util';

describe('toPartnerUser (evidence §3 answers)', () => {
  const created = {
    id: 'u-1',
    type: 'business',
    status: 'CREATED',
    verification_status: 'unverified',
    verification_mode: 'automatic',
    verification_triggered: true,
    external_id: 'crm-1',
    email: 'ops@acme.example',
    registered_address: {
      street_line_1: '500 Market St',
      city: 'San Francisco',
      subdivision: 'CA',
      postal_code: '94105',
      country: 'USA',
    },
    eligible_products: [
      {
        product_id: 'usa-virtual-accounts',
        product_code: 'usa-virtual-accounts',
        product_name: 'USA',
        eligible: false,
        missing_fields: ['occupation'],
      },
      {
        product_id: 'usa-virtual-accounts-zenus',
        eligible: false,
        unsupported_reason: 'not in your country',
      },
      'garbage',
    ],
    associated_persons: [{ email: 'o@acme.example' }, 'x'],
    metadata: { a: '1', b: 2 },
    created_at: '2026-07-13T20:42:04.713Z',
    updated_at: '2026-05-28 00:52:49.879228+00',
  };

  it('reads the create answer: id, statuses, products, renamed address, trigger flag, lenient timestamps', () => {
    const user = toPartnerUser(created);
    expect(user).toMatchObject({
      userId: 'u-1',
      type: 'business',
      status: 'CREATED',
      verificationStatus: 'unverified',
      verificationMode: 'automatic',
      verificationTriggered: true,
      externalId: 'crm-1',
      missingFields: null,
      residentialAddress: null,
      registeredAddress: {
        streetLine1: '500 Market St',
        streetLine2: null,
        city: 'San Francisco',
        subdivision: 'CA',
        postalCode: '94105',
        country: 'USA',
      },
      associatedPersons: [{ email: 'o@acme.example' }],
      metadata: { a: '1' },
    });
    expect(user.eligibleProducts).toEqual([
      {
        productId: 'usa-virtual-accounts',
        productCode: 'usa-virtual-accounts',
        productName: 'USA',
        eligible: false,
        missingFields: ['occupation'],
        unsupportedReason: null,
      },
      {
        productId: 'usa-virtual-accounts-zenus',
        productCode: 'usa-virtual-accounts-zenus',
        productName: null,
        eligible: false,
        missingFields: [],
        unsupportedReason: 'not in your country',
      },
    ]);
    expect(user.createdAt?.toISOString()).toBe('2026-07-13T20:42:04.713Z');
    expect(user.updatedAt?.toISOString()).toBe('2026-05-28T00:52:49.879Z');
    expect(user.raw).toBe(created);
  });

  it('reads GET: missing_fields by product plus general, no trigger flag; accepts user_id; refuses no id', () => {
    const read = toPartnerUser({
      user_id: 'u-2',
      missing_fields: { 'usa-virtual-accounts': ['ssn'], general: ['ssn', 'employment_status'], bad: 'x' },
    });
    expect(read.userId).toBe('u-2');
    expect(read.verificationTriggered).toBeNull();
    expect(read.missingFields).toEqual({
      'usa-virtual-accounts': ['ssn'],
      general: ['ssn', 'employment_status'],
      bad: [],
    });
    expect(read.eligibleProducts).toEqual([]);
    expect(() => toPartnerUser({ status: 'CREATED' })).toThrow(TypeError);
  });

  it('reads the PUT answer: updated_fields, requires_reverification, warnings', () => {
    expect(
      toPartnerUserUpdateResult({
        id: 'u-1',
        updated_fields: ['last_name'],
        requires_reverification: true,
        warnings: ['document upload failed', { message: 'x' }],
      }),
    ).toMatchObject({
      userId: 'u-1',
      updatedFields: ['last_name'],
      requiresReverification: true,
      warnings: ['document upload failed', 'x'],
    });
    expect(toPartnerUserUpdateResult({ id: 'u-1' })).toMatchObject({
      updatedFields: [],
      requiresReverification: false,
      warnings: [],
    });
  });

  it('reads a verification: { id, verification_link, status }', () => {
    expect(
      toPartnerVerification({ id: 'v', verification_link: 'https://x', status: 'pending' }),
    ).toMatchObject({
      id: 'v',
      verificationLink: 'https://x',
      status: 'pending',
    });
    expect(() => toPartnerVerification({})).toThrow(TypeError);
  });
});

/**
 * Bodies as the partner's raw captures record them (evidence §11 [T3raw users/03, 15, 23][T4 log
 * §4]), trimmed to the keys these tests read (ids, products and lists as captured).
 */
describe('toPartnerUser on the round-2 captures (evidence §11 C3-C5, N18, N21)', () => {
  const product = (product_id: string, product_code: string, product_name: string) => ({
    product_id,
    product_code,
    product_name,
    eligible: false,
  });
  const products = [
    product('2bdd542d-883f-426c-9664-0718a9d86f04', 'payment_link', 'Payment Link'),
    product('497207ac-004c-48e1-b90f-5cf6a161a745', 'usa-virtual-accounts', 'USA Virtual Accounts'),
    product('a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', 'usa-virtual-accounts-act', 'USA Virtual Accounts (ACT)'),
  ];
  /** users/15: PUT {} → 200, no warnings, verification_triggered present, missing_fields without general. */
  const putEmpty = {
    id: 'ae80515c-2d59-4e02-9678-0bcfd6e9a188',
    type: 'business',
    email: 'ops+phase2-1779928419-312dc5@example.com',
    status: 'CREATED',
    verification_status: 'unverified',
    created_at: '2026-05-28T00:33:39.255Z',
    updated_at: '2026-05-28T00:55:51.228Z',
    verification_mode: 'automatic',
    metadata: { ts: '1779929750', batch: 'B', probe: 'non-sensitive-update' },
    formation_country: 'USA',
    business_legal_name: 'Test Corp 1779928419',
    registered_address: {
      street_line_1: '123 Fake Ave',
      street_line_2: '',
      city: 'Wilmington',
      subdivision: 'DE',
      postal_code: '19801',
      country: 'USA',
    },
    requires_reverification: false,
    verification_triggered: false,
    updated_fields: [],
    eligible_products: products,
    missing_fields: {
      'usa-virtual-accounts': ['doing_business_as', 'business_industry', 'phone'],
      'usa-virtual-accounts-act': ['associated_persons:email', 'associated_persons:document_number'],
    },
    associated_persons: [{ email: 'signer+batchB-1779929750@example.com', is_signer: true }],
  };

  it('C3: keys products on product_code, keeps the UUID product_id opaque, takes each list from the top-level dict', () => {
    const user = toPartnerUser(putEmpty);
    expect(user.eligibleProducts.map((p) => [p.productCode, p.productId, p.missingFields])).toEqual([
      ['payment_link', '2bdd542d-883f-426c-9664-0718a9d86f04', []],
      [
        'usa-virtual-accounts',
        '497207ac-004c-48e1-b90f-5cf6a161a745',
        ['doing_business_as', 'business_industry', 'phone'],
      ],
      [
        'usa-virtual-accounts-act',
        'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
        ['associated_persons:email', 'associated_persons:document_number'],
      ],
    ]);
  });

  it('C5, N21: the PUT answer without warnings reads as [], with verification_triggered and street_line_2 "" as null', () => {
    const result = toPartnerUserUpdateResult(putEmpty);
    expect(result).toMatchObject({
      updatedFields: [],
      requiresReverification: false,
      warnings: [],
      verificationTriggered: false,
      registeredAddress: { streetLine1: '123 Fake Ave', streetLine2: null, subdivision: 'DE' },
    });
    expect(result.createdAt?.toISOString()).toBe('2026-05-28T00:33:39.255Z');
    expect(result.missingFields).toEqual(putEmpty.missing_fields);
  });

  it('C4: the create answer with missing_fields absent (users/23), null, or a dict (users/03)', () => {
    const base = {
      id: '02e4e953-f423-4a7a-8828-f9c2a2ecb1c7',
      status: 'CREATED',
      verification_triggered: true,
    };
    expect(toPartnerUser({ ...base, eligible_products: products }).missingFields).toBeNull();
    const withNull = toPartnerUser({ ...base, eligible_products: products, missing_fields: null });
    expect(withNull.missingFields).toBeNull();
    expect(withNull.eligibleProducts.every((p) => p.missingFields.length === 0)).toBe(true);
    const withDict = toPartnerUser({
      ...base,
      verification_triggered: false,
      eligible_products: products,
      missing_fields: { 'usa-virtual-accounts': ['account_purpose'] },
    });
    expect(withDict.eligibleProducts[1].missingFields).toEqual(['account_purpose']);
  });

  it('N18: a verification_link user carries its link in the flat create answer', () => {
    const user = toPartnerUser({
      id: 'u-3',
      status: 'CREATED',
      verification_mode: 'verification_link',
      verification_link: 'https://verify-sandbox.aiprise.com/?session=abc',
    });
    expect(user.verificationLink).toBe('https://verify-sandbox.aiprise.com/?session=abc');
    expect(toPartnerUser({ id: 'u-4' }).verificationLink).toBeNull();
  });
});

describe('parsePartnerTimestamp', () => {
  it.each([
    ['2026-07-13T20:42:04.713Z', '2026-07-13T20:42:04.713Z'],
    ['2026-05-28 00:52:49.879228+00', '2026-05-28T00:52:49.879Z'],
    ['2026-05-28 00:54:15.43984+00', '2026-05-28T00:54:15.439Z'], // evidence §11 N29: 5 digits
    ['2026-05-28 00:54:15+00', '2026-05-28T00:54:15.000Z'], // a whole second: no fraction
    ['2026-05-28 02:52:49+02:00', '2026-05-28T00:52:49.000Z'],
    ['2026-05-28 05:22:49.1+0530', '2026-05-27T23:52:49.100Z'],
    ['2026-05-28T00:52:49', '2026-05-28T00:52:49.000Z'], // no offset: UTC, not the host's zone
    ['2026-05-28', '2026-05-28T00:00:00.000Z'],
  ])('%s', (input, iso) => expect(parsePartnerTimestamp(input)?.toISOString()).toBe(iso));

  it('reads epoch seconds and milliseconds; anything else is null, never a throw', () => {
    expect(parsePartnerTimestamp(1_780_000_000)?.toISOString()).toBe('2026-05-28T20:26:40.000Z');
    expect(parsePartnerTimestamp(1_780_000_000_000)?.toISOString()).toBe('2026-05-28T20:26:40.000Z');
    for (const bad of ['yesterday', '', null, undefined, {}, Number.NaN, '2026-13-45T99:99:99Z'])
      expect(parsePartnerTimestamp(bad)).toBeNull();
  });
});
