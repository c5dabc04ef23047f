/**
 * Credentials belong to one stage (evidence §11 N1, C2): a client configured for the other base
 * than its keys' fails at once with a PartnerAuthenticationError that says where to look.
 */
import { PartnerAuthenticationError } from '@partner-payments/nestjs/errors';
import { startClientWorld, stopClientWorld, type ClientWorld } from './client.fixture';

describe('client: sandbox credentials on the production base (evidence §11 N1)', () => {
  let world: ClientWorld;
  beforeAll(async () => (world = await startClientWorld({}, { environment: 'production', maxRetries: 0 })));
  afterAll(() => stopClientWorld(world));

  it('POST /auth answers the gateway’s 403: an authentication error naming the stage, nothing sent after it', async () => {
    const error = (await world.graph.client.users
      .list({ limit: 1 })
      .catch((e: unknown) => e)) as PartnerAuthenticationError;
    expect(error).toBeInstanceOf(PartnerAuthenticationError);
    expect(error.status).toBe(403);
    expect(error.message).toContain('sandbox credentials work only under {base_url}/sandbox');
    const log = await world.sandbox.control.requestLog();
    expect(log.map((e) => `${e.method} ${e.path}`)).toEqual(['POST /auth']);
    expect(error.message).not.toContain(world.sandbox.credentials.apiKey);
  });
});
