/**
 * The client's error normaliser end to end (evidence §2): every body shape the
 * partner answers with, as the sandbox sends it per endpoint, becomes a typed error by HTTP status
 * with its code, message and field errors. Raw requests go through the client's own HTTP layer
 * (auth, headers, error mapping) to reach the refusals the typed methods catch before any I/O.
 */
import type { PartnerApiError } from '@partner-payments/nestjs';
import {
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerServerError,
  PartnerValidationError,
} from '@partner-payments/nestjs/errors';
import { createPartnerApiError } from '../../libs/partner-payments/src/errors/error-factory.util';
import { startClientWorld, stopClientWorld, type ClientWorld } from './client.fixture';

describe('client: partner error shapes end to end (evidence §2)', () => {
  let world: ClientWorld;
  beforeAll(async () => (world = await startClientWorld({}, { maxRetries: 0 })));
  afterAll(() => stopClientWorld(world));
  const fail = (req: Parameters<ClientWorld['graph']['client']['http']['request']>[0]) =>
    world.graph.client.http.request(req).then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e as PartnerApiError,
    );

  it('Z: the Zod shape {error, details[{path,message,code}]} → PartnerValidationError with field errors', async () => {
    const e = await fail({ method: 'GET', path: '/v1/users/not-a-uuid' });
    expect(e).toBeInstanceOf(PartnerValidationError);
    expect(e.status).toBe(400);
    expect(e.fieldErrors.length).toBeGreaterThan(0);
    expect(e.fieldErrors[0]).toEqual({ field: expect.any(String), message: expect.any(String) });
    // evidence §2 [T1 KiraErrorParser]: the message joins details[].path: message, so a log line
    // or an operator sees which field, not only "Invalid request data".
    const [first] = e.fieldErrors;
    expect(e.message).toContain(`${first.field}: ${first.message}`);
  });

  it('F: the flat {code, message} → PartnerNotFoundError with the code', async () => {
    const e = await fail({ method: 'GET', path: '/v1/users/0b6f0b0e-8f5e-4d52-9a5e-4f0c7d1c2a11' });
    expect(e).toBeInstanceOf(PartnerNotFoundError);
    expect(e.code).toBe('not_found');
  });

  it('B: the typed {error:{code,message,details}} → PartnerValidationError, SCREAMING_SNAKE code lowered', async () => {
    const e = await fail({ method: 'GET', path: '/v1/recipients' });
    expect(e).toBeInstanceOf(PartnerValidationError);
    expect(e.code).toBe('validation_error');
    expect(e.message).toMatch(/user_id/);
  });

  it('I: the bare {status:"error", message} 500 → PartnerServerError', async () => {
    const e = await fail({ method: 'GET', path: '/v1/users', query: { limit: 100000 } });
    expect(e).toBeInstanceOf(PartnerServerError);
    expect(e.status).toBe(500);
    expect(e.message).toContain('Internal server error');
  });

  it('G: the gateway {message:"Forbidden"} (no x-api-key) parses to PartnerPermissionError with that message', async () => {
    // The client always sends its key, so the gateway body is fetched raw and fed to the client's own
    // error factory; a 403 the API answers (another client's configuration) comes through the client.
    const raw = await fetch(`${world.sandbox.sandboxBaseUrl}/v1/users`);
    expect(raw.status).toBe(403);
    const body = await raw.json();
    expect(body).toEqual({ message: 'Forbidden' });
    const parsed = createPartnerApiError({ status: 403, body });
    expect(parsed).toBeInstanceOf(PartnerPermissionError);
    expect(parsed.message).toContain('Forbidden');
    const other = await world.sandbox.control.createClient();
    const forbidden = await fail({ method: 'GET', path: `/v1/clients/${other.clientUuid}` });
    expect(forbidden).toBeInstanceOf(PartnerPermissionError);
    expect(forbidden.status).toBe(403);
  });
});
