import { parsePartnerTimestamp } from './timestamp.util';
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
        productCode: null,
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

describe('parsePartnerTimestamp', () => {
  it.each([
    ['2026-07-13T20:42:04.713Z', '2026-07-13T20:42:04.713Z'],
    ['2026-05-28 00:52:49.879228+00', '2026-05-28T00:52:49.879Z'],
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
