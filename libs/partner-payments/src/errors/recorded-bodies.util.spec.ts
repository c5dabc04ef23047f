import { parseErrorBody } from './error-body.util';
import { createPartnerApiError } from './error-factory.util';
import {
  PartnerAuthenticationError,
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerServerError,
  PartnerValidationError,
} from './partner-api.errors';

/**
 * The error bodies of evidence §11 as the partner's runtime captures recorded them (T3raw
 * 2026-05-28, T4 log 2026-05-29), byte for byte where the capture has them whole.
 */
const RECORDED = {
  // N31 [T3raw abuse/verification-skip-attempt/01-P1-va-create-CREATED.json]
  vaType: {
    code: 'validation_error',
    error: 'Invalid data',
    details: [
      { message: "type is Invalid enum value. Expected 'US_BANK' | 'MX_SPEI', received 'individual'" },
    ],
  },
  // N32 [T3raw 11-iter2-P1-va-US_BANK-CREATED.json]
  vaBank: {
    code: 'validation_error',
    error: 'Invalid data',
    details: [{ message: 'bank is bank is required for US_BANK virtual accounts' }],
  },
  // N32 [T4 log §7], trimmed by its author to the message
  vaBankEnum: {
    message:
      "bank is Invalid enum value. Expected 'portage' | 'slovak_savings_bank' | 'austin_capital_trust', received 'ACT'",
  },
  // N33 [T3raw 12-iter2-P1b-va-MX_SPEI-CREATED.json]
  vaUnverified: {
    statusCode: 400,
    error: 'Bad Request',
    message: 'User must be in VERIFIED status to create a virtual account. Current status: CREATED',
    timestamp: '2026-05-28T02:27:13.151Z',
  },
  // N13 [T3raw abuse/bola-cross-tenant-stub/04-random-va-00.json]
  vaNotFound: {
    statusCode: 404,
    error: 'Not Found',
    message: 'Virtual account f7053545-e419-4218-a24e-7c581457c19c not found',
    timestamp: '2026-05-28T02:24:01.025Z',
  },
  // N35 [T3raw 02-P2-payout-CREATED.json]
  cryptoPayout: {
    error: 'Invalid request data',
    details: [
      { path: 'network', message: 'Network is required', code: 'invalid_type' },
      { path: 'txHash', message: 'Required', code: 'invalid_type' },
      { path: 'quote_id', message: 'Required', code: 'invalid_type' },
    ],
  },
  // N36 [T3raw 03-P3-quote-CREATED.json]: `path` is an array here
  quotation: {
    code: 'validation_error',
    message: 'Invalid request body',
    details: [
      {
        code: 'custom',
        message: 'Either recipient_id or account_type (WIRE, SWIFT, WALLET, ACH, or INSTANT_PAY) is required',
        path: ['recipient_id'],
      },
    ],
  },
  // N1, N3 [T3raw versioning/03, 04]: the gateway's bodies for another stage's credentials
  forbidden: { message: 'Forbidden' },
  unauthorized: { message: 'Unauthorized' },
  // N8 [T3raw security/jwt-attack-suite/02]: the gateway's answer to a token with a changed signature
  accessDenied: { Message: 'Access Denied' },
  // N9 [T3ref §2.1], older docs only: POST /auth with a malformed client_id (its msg is not given
  // there; Pydantic's wording for uuid_parsing), and its outage
  authMalformedClientId: {
    message: 'Invalid input data',
    data: [
      {
        type: 'uuid_parsing',
        loc: ['body', 'client_id'],
        msg: 'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 1',
      },
    ],
  },
  authUnavailable: { message: 'Service unavailable', data: { error: 'Service unavailable' } },
} as const;

const make = (status: number, body: unknown, path = '/v1/virtual-accounts') =>
  createPartnerApiError({ status, body, method: 'POST', path });

describe('recorded error bodies of evidence §11', () => {
  it('N31, N32: the create detail without a path names its field from "<field> is …"', () => {
    expect(parseErrorBody(RECORDED.vaType)).toMatchObject({
      code: 'validation_error',
      fieldErrors: [
        {
          field: 'type',
          message: "Invalid enum value. Expected 'US_BANK' | 'MX_SPEI', received 'individual'",
        },
      ],
      message:
        "Invalid data: type: Invalid enum value. Expected 'US_BANK' | 'MX_SPEI', received 'individual'",
    });
    const bank = make(400, RECORDED.vaBank);
    expect(bank).toBeInstanceOf(PartnerValidationError);
    expect(bank.fieldErrors).toEqual([
      { field: 'bank', message: 'bank is required for US_BANK virtual accounts' },
    ]);
    expect(make(400, RECORDED.vaBankEnum).message).toContain(
      "bank is Invalid enum value. Expected 'portage'",
    );
  });

  it('a detail message that does not start with a field keeps an empty field', () => {
    expect(parseErrorBody({ details: [{ message: 'This is not a field' }] }).fieldErrors).toEqual([
      { field: '', message: 'This is not a field' },
    ]);
  });

  it('N33, N13: the standard error shape is a validation error and a not-found with the message', () => {
    const unverified = make(400, RECORDED.vaUnverified);
    expect(unverified).toBeInstanceOf(PartnerValidationError);
    expect(unverified.message).toContain('User must be in VERIFIED status');
    const missing = make(404, RECORDED.vaNotFound, '/v1/virtual-accounts/f7053545');
    expect(missing).toBeInstanceOf(PartnerNotFoundError);
    expect(missing.message).toContain('Virtual account f7053545-e419-4218-a24e-7c581457c19c not found');
  });

  it('N35, N36: Zod paths as strings and as arrays both name the field', () => {
    expect(make(400, RECORDED.cryptoPayout, '/v1/payouts').fieldErrors.map((e) => e.field)).toEqual([
      'network',
      'txHash',
      'quote_id',
    ]);
    const quote = make(400, RECORDED.quotation, '/v1/quotations');
    expect(quote.code).toBe('validation_error');
    expect(quote.fieldErrors).toEqual([{ field: 'recipient_id', message: expect.stringMatching(/^Either/) }]);
  });

  it('N1, N3: the gateway bodies of another stage’s credentials', () => {
    expect(make(403, RECORDED.forbidden, '/auth')).toBeInstanceOf(PartnerPermissionError);
    const unauthorized = make(401, RECORDED.unauthorized, '/v1/users');
    expect(unauthorized).toBeInstanceOf(PartnerAuthenticationError);
    expect(unauthorized.message).toContain('Unauthorized');
  });

  it('N8: a changed token signature is the gateway’s 403 { Message } (capital M), its message read', () => {
    const denied = make(403, RECORDED.accessDenied, '/v1/users');
    expect(denied).toBeInstanceOf(PartnerPermissionError);
    expect(denied.message).toContain('Access Denied');
  });

  it('N9: the older docs’ /auth bodies, a 422 naming client_id and a 500 with its message', () => {
    const malformed = make(422, RECORDED.authMalformedClientId, '/auth');
    expect(malformed).toBeInstanceOf(PartnerValidationError);
    expect(malformed.fieldErrors).toEqual([
      { field: 'client_id', message: expect.stringMatching(/^Input should be a valid UUID/) },
    ]);
    expect(malformed.message).toContain('Invalid input data');
    const unavailable = make(500, RECORDED.authUnavailable, '/auth');
    expect(unavailable).toBeInstanceOf(PartnerServerError);
    expect(unavailable.message).toContain('Service unavailable');
  });
});
