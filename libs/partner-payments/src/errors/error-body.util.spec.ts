import { parseErrorBody } from './error-body.util';
import { createPartnerApiError, createPartnerNetworkError } from './error-factory.util';
import {
  PartnerApiError,
  PartnerAuthenticationError,
  PartnerConflictError,
  PartnerIdempotencyConflictError,
  PartnerConnectionError,
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerRateLimitError,
  PartnerRfiAnswerError,
  PartnerServerError,
  PartnerTimeoutError,
  PartnerValidationError,
} from './partner-api.errors';
import { PartnerError } from './partner.errors';

describe('parseErrorBody: every shape of spec 7.1 and provider-facts', () => {
  it('standard error { message, code, statusCode, error, timestamp, path, details }', () => {
    const p = parseErrorBody({
      message: 'Recipient not found',
      code: 'not_found',
      statusCode: 404,
      error: 'Not Found',
      timestamp: '2026-04-14T00:00:00Z',
      path: '/v1/recipients/x',
      details: { recipient_id: 'x' },
    });
    expect(p).toMatchObject({
      code: 'not_found',
      message: 'Recipient not found',
      details: { recipient_id: 'x' },
    });
  });

  it('{ code, message }', () => {
    expect(parseErrorBody({ code: 'unauthorized', message: 'Invalid token' })).toMatchObject({
      code: 'unauthorized',
      message: 'Invalid token',
      fieldErrors: [],
      itemErrors: [],
    });
  });

  it('{ code, message, errors: [{ field, message }] }', () => {
    const p = parseErrorBody({
      code: 'validation_error',
      message: 'Invalid body',
      errors: [{ field: 'email', message: 'must be an email' }],
    });
    expect(p.fieldErrors).toEqual([{ field: 'email', message: 'must be an email' }]);
  });

  it('{ code, error, details[] } with string details', () => {
    const p = parseErrorBody({
      code: 'validation_error',
      error: 'Invalid request body',
      details: ['items must not be empty'],
    });
    expect(p).toMatchObject({
      code: 'validation_error',
      message: 'Invalid request body: items must not be empty',
    });
    expect(p.fieldErrors).toEqual([{ field: '', message: 'items must not be empty' }]);
  });

  it('{ error, details: [{ path, message, code }] } with array paths', () => {
    const p = parseErrorBody({
      error: 'Validation failed',
      details: [
        { path: ['metadata', 'color'], message: 'too long', code: 'too_big' },
        { path: 'type', message: 'required', code: 'invalid_type' },
      ],
    });
    // evidence §2 [T1 KiraErrorParser]: details[].path: message joined into the message
    expect(p.message).toBe('Validation failed: metadata.color: too long; type: required');
    expect(p.fieldErrors).toEqual([
      { field: 'metadata.color', message: 'too long' },
      { field: 'type', message: 'required' },
    ]);
  });

  it('field problems are joined into the message once, at most 5 of them', () => {
    const details = Array.from({ length: 7 }, (_, i) => ({ path: `f${i}`, message: 'bad', code: 'x' }));
    expect(parseErrorBody({ error: 'Invalid request data', details }).message).toBe(
      'Invalid request data: f0: bad; f1: bad; f2: bad; f3: bad; f4: bad; and 2 more',
    );
    // a message that already says it is not repeated
    const said = {
      code: 'validation_error',
      message: 'email: taken',
      errors: [{ field: 'email', message: 'taken' }],
    };
    expect(parseErrorBody(said).message).toBe('email: taken');
  });

  it('{ error: { code, message, details } } with SCREAMING_SNAKE codes', () => {
    const p = parseErrorBody({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Bad input',
        details: [{ field: 'amount', message: 'must be a string' }],
      },
    });
    expect(p).toMatchObject({ code: 'validation_error', message: 'Bad input: amount: must be a string' });
    expect(p.fieldErrors).toEqual([{ field: 'amount', message: 'must be a string' }]);
  });

  it('{ error: { code, message, details: { field: message } } }', () => {
    const p = parseErrorBody({
      error: {
        code: 'INVALID_REQUEST',
        message: 'x',
        details: { email: 'taken', name: ['too short', 'bad'] },
      },
    });
    expect(p.fieldErrors).toEqual([
      { field: 'email', message: 'taken' },
      { field: 'name', message: 'too short' },
      { field: 'name', message: 'bad' },
    ]);
  });

  it('per-item { errors: [{ item_id, message }] } → itemErrors', () => {
    const p = parseErrorBody({
      errors: [
        { item_id: 'i-1', message: 'longer than 50' },
        { item_id: 'i-2', message: 'not an option' },
      ],
    });
    expect(p.itemErrors).toEqual([
      { itemId: 'i-1', message: 'longer than 50' },
      { itemId: 'i-2', message: 'not an option' },
    ]);
    expect(p.fieldErrors).toEqual([]);
    expect(p.message).toBe('i-1: longer than 50; i-2: not an option');
  });

  it('{ data: [{ loc, msg, type }], message }', () => {
    const p = parseErrorBody({
      message: 'Unprocessable',
      data: [
        { loc: ['body', 'items', 0, 'answer_value'], msg: 'field required', type: 'value_error.missing' },
      ],
    });
    expect(p.message).toBe('Unprocessable: items[0].answer_value: field required');
    expect(p.fieldErrors).toEqual([{ field: 'items[0].answer_value', message: 'field required' }]);
  });

  it('{ message } only, and NestJS message arrays', () => {
    expect(parseErrorBody({ message: 'Nope' })).toMatchObject({ message: 'Nope', code: null });
    expect(
      parseErrorBody({ statusCode: 400, message: ['a is bad', 'b is bad'], error: 'Bad Request' }).message,
    ).toBe('a is bad; b is bad');
  });

  it('a bare text or HTML body (the 500 above limit=100)', () => {
    expect(parseErrorBody('<html><body>Internal   Server Error</body></html>').message).toBe(
      '<html><body>Internal Server Error</body></html>',
    );
    expect(parseErrorBody('{"code":"conflict","message":"closed"}')).toMatchObject({
      code: 'conflict',
      message: 'closed',
    });
    expect(parseErrorBody(Buffer.from('{"message":"buf"}')).message).toBe('buf');
  });

  it('empty and odd bodies never throw', () => {
    for (const b of [undefined, null, '', 42, [], [1, 2], { errors: 'x' }, { error: null }, { details: 5 }]) {
      expect(() => parseErrorBody(b)).not.toThrow();
    }
    expect(parseErrorBody('')).toMatchObject({ message: null, code: null });
  });
});

describe('createPartnerApiError: classification by HTTP status (spec 7.1)', () => {
  const make = (status: number, body: unknown = {}) =>
    createPartnerApiError({ status, body, method: 'GET', path: '/v1/x' });

  it.each([
    [400, PartnerValidationError, 'validation_error'],
    [401, PartnerAuthenticationError, 'unauthorized'],
    [403, PartnerPermissionError, 'invalid_request'],
    [404, PartnerNotFoundError, 'not_found'],
    [409, PartnerConflictError, 'conflict'],
    [422, PartnerValidationError, 'unprocessable'],
    [429, PartnerRateLimitError, 'rate_limited'],
    [500, PartnerServerError, 'server_error'],
    [503, PartnerServerError, 'server_error'],
    [418, PartnerApiError, 'http_error'],
  ])('%i → %p with default code %s', (status, cls, code) => {
    const e = make(status);
    expect(e).toBeInstanceOf(cls);
    expect(e).toBeInstanceOf(PartnerApiError);
    expect(e).toBeInstanceOf(PartnerError);
    expect(e).toMatchObject({ status, code });
    expect(e.name).toBe(cls.name);
  });

  it('the body code wins over the status default, whatever the shape', () => {
    expect(make(403, { code: 'invalid_request', message: 'route not matched' }).code).toBe('invalid_request');
    expect(make(401, { code: 'invalid_request', message: 'not authenticated' })).toBeInstanceOf(
      PartnerAuthenticationError,
    );
    expect(make(404, { error: { code: 'NOT_FOUND', message: 'gone' } }).message).toBe('GET /v1/x: 404 gone');
  });

  it('item errors make a PartnerRfiAnswerError (the PATCH status is not shown, spec 7.4)', () => {
    for (const status of [400, 422]) {
      const e = make(status, { errors: [{ item_id: 'i-1', message: 'too long' }] });
      expect(e).toBeInstanceOf(PartnerRfiAnswerError);
      expect(e).toBeInstanceOf(PartnerValidationError);
      expect(e.itemErrors).toEqual([{ itemId: 'i-1', message: 'too long' }]);
    }
    // a closed RFI stays a conflict even if it lists items
    expect(make(409, { code: 'conflict', message: 'closed' })).toBeInstanceOf(PartnerConflictError);
  });

  it('409 IDEMPOTENCY_CONFLICT (shape B) is a PartnerIdempotencyConflictError saying the key was reused', () => {
    const body = { error: { code: 'IDEMPOTENCY_CONFLICT', message: 'Key reused', details: {} } };
    const e = createPartnerApiError({
      status: 409,
      body,
      idempotencyKey: '3f0e2a9c-4b1d-4c8e-9f2a-1b2c3d4e5f60',
      method: 'POST',
      path: '/v1/recipients',
    });
    expect(e).toBeInstanceOf(PartnerIdempotencyConflictError);
    expect(e).toBeInstanceOf(PartnerConflictError);
    expect(e).toMatchObject({ status: 409, code: 'idempotency_conflict', body, details: {} });
    expect(e.message).toMatch(
      /^POST \/v1\/recipients: 409 the Idempotency-Key 3f0e2a9c-4b1d-4c8e-9f2a-1b2c3d4e5f60 was already used with a different request body/,
    );
    // any other 409 stays a plain conflict
    expect(make(409, { code: 'conflict', message: 'closed' })).not.toBeInstanceOf(
      PartnerIdempotencyConflictError,
    );
  });

  it('keeps the raw body, details, requestId, idempotency key and retryAfter', () => {
    const body = { code: 'rate_limited', message: 'slow', details: { limit: 20 } };
    const e = createPartnerApiError({
      status: 429,
      body,
      requestId: 'r',
      idempotencyKey: 'k',
      retryAfterMs: 1000,
    }) as PartnerRateLimitError;
    expect(e).toMatchObject({
      body,
      details: { limit: 20 },
      requestId: 'r',
      idempotencyKey: 'k',
      retryAfterMs: 1000,
    });
  });

  it('network errors: timeouts and connection failures, status null', () => {
    const t = createPartnerNetworkError({
      errorCode: 'ETIMEDOUT',
      timedOut: true,
      message: 'timeout of 100ms exceeded',
    });
    expect(t).toBeInstanceOf(PartnerTimeoutError);
    expect(t).toBeInstanceOf(PartnerConnectionError);
    expect(t).toMatchObject({ status: null, code: 'etimedout' });
    const c = createPartnerNetworkError({
      errorCode: 'ECONNRESET',
      timedOut: false,
      message: 'socket hang up',
    });
    expect(c).not.toBeInstanceOf(PartnerTimeoutError);
    expect(c.code).toBe('econnreset');
  });
});

/** Error bodies as the partner's raw captures and a second tenant's log record them (evidence §11). */
describe('the round-2 error bodies (evidence §11 N10-N13, N15, N20)', () => {
  const id = '6f1c4a4e-0000-4000-8000-000000000000';
  const error = (status: number, body: unknown) =>
    createPartnerApiError({ status, body, method: 'GET', path: '/v1/x' });

  it('N10: users 404 { code, message } with the id in the message', () => {
    const e = error(404, { code: 'not_found', message: `User with ID ${id} not found` });
    expect(e).toBeInstanceOf(PartnerNotFoundError);
    expect(e).toMatchObject({ code: 'not_found', message: `GET /v1/x: 404 User with ID ${id} not found` });
  });

  it('N11: users malformed id 400 in the Zod shape names user_id', () => {
    const e = error(400, {
      error: 'Invalid request data',
      details: [{ path: 'user_id', message: 'Invalid user ID format', code: 'invalid_string' }],
    });
    expect(e).toBeInstanceOf(PartnerValidationError);
    expect(e.fieldErrors).toEqual([{ field: 'user_id', message: 'Invalid user ID format' }]);
  });

  it('N12: recipients 404 typed { error: { code: NOT_FOUND, message, details: {} } }', () => {
    const e = error(404, {
      error: { code: 'NOT_FOUND', message: `Recipient with ID ${id} not found`, details: {} },
    });
    expect(e).toBeInstanceOf(PartnerNotFoundError);
    expect(e).toMatchObject({
      code: 'not_found',
      message: `GET /v1/x: 404 Recipient with ID ${id} not found`,
    });
    expect(e.fieldErrors).toEqual([]);
  });

  it('N13: virtual accounts 404 in the Nest standard shape', () => {
    const e = error(404, {
      statusCode: 404,
      error: 'Not Found',
      message: `Virtual account ${id} not found`,
      timestamp: '2026-05-28T00:40:00.000Z',
    });
    expect(e).toBeInstanceOf(PartnerNotFoundError);
    expect(e.message).toBe(`GET /v1/x: 404 Virtual account ${id} not found`);
  });

  it('N15: a Zod 400 listing several fields keeps every one', () => {
    const e = error(400, {
      error: 'Invalid request data',
      details: [
        { path: 'address.country', message: 'Country must be a 2-character ISO code', code: 'too_big' },
        {
          path: 'account.doc_type',
          message: "Invalid enum value. Expected 'id' | 'dni' | 'passport' | 'ein', received 'ssn'",
          code: 'invalid_enum_value',
        },
      ],
    });
    expect(e.fieldErrors.map((f) => f.field)).toEqual(['address.country', 'account.doc_type']);
  });

  it('N20: a key reused after a failed user create is a 400 validation_error, not a conflict', () => {
    const e = error(400, { code: 'validation_error', message: 'Failed to store idempotency key' });
    expect(e).toBeInstanceOf(PartnerValidationError);
    expect(e).not.toBeInstanceOf(PartnerConflictError);
    expect(e.message).toContain('Failed to store idempotency key');
  });
});
