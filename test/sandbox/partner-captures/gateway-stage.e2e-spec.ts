import { Api, useWorld } from '../sandbox.fixture';

/**
 * The gateway and the stages as the partner's runtime captures show them (evidence §11 N1-N3,
 * N5-N7, C2): credentials belong to one stage, every app answer names its version, a repeated pin
 * is a no-op, and a CORS preflight is answered by the gateway.
 */
describe('sandbox: gateway and stages (evidence §11)', () => {
  const world = useWorld({ pinnedVersion: '2026-04-14' }, 'all');
  const rootApi = () => {
    const api = new Api(world.sandbox.baseUrl, world.sandbox.credentials);
    api.token = world.api.token;
    return api;
  };

  it('N1, N3: on the root (the other stage) the sandbox key gets 403 Forbidden on /auth and its token 401 Unauthorized, 26 bytes without charset', async () => {
    const auth = await rootApi().call('POST', '/auth', {
      body: { client_id: world.sandbox.credentials.clientId, password: world.sandbox.credentials.password },
      auth: false,
    });
    expect([auth.status, auth.body, auth.headers.get('x-amzn-errortype')]).toEqual([
      403,
      { message: 'Forbidden' },
      'ForbiddenException',
    ]);
    for (const [method, path] of [
      ['GET', '/v1/users?limit=1'],
      ['POST', '/v1/versioning/upgrade'],
      ['GET', `/v1/virtual-accounts/${crypto.randomUUID()}`],
    ]) {
      const answer = await rootApi().call(method, path, { body: method === 'POST' ? {} : undefined });
      expect([answer.status, answer.text, answer.headers.get('x-amzn-errortype')]).toEqual([
        401,
        '{"message":"Unauthorized"}',
        'UnauthorizedException',
      ]);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('content-length')).toBe('26');
      expect(answer.headers.get('x-api-version')).toBeNull();
    }
    // N2: a route the stage does not have stays the unmatched route's 403; so does an unknown one.
    for (const path of [`/v1/virtual-accounts/${crypto.randomUUID()}/simulate-deposit`, '/v1/nothing']) {
      const answer = await rootApi().call('POST', path, { body: { amount: '10.00' } });
      expect([answer.status, answer.body.code]).toEqual([403, 'invalid_request']);
    }
  });

  it('N5, N6: answers carry x-api-version (the pin when none is sent, the header sent otherwise); a repeated pin answers previous = current', async () => {
    const users = await world.api.call('GET', '/v1/users?limit=1');
    expect(users.headers.get('x-api-version')).toBe('2026-04-14');
    const recipients = await world.api.call('GET', '/v1/recipients', { version: '2025-01-01' });
    expect(recipients.headers.get('x-api-version')).toBe('2025-01-01');
    const upgrade = await world.api.call('POST', '/v1/versioning/upgrade', {
      body: { target_version: '2026-04-14' },
    });
    expect([upgrade.status, upgrade.body]).toEqual([
      200,
      { previous_version: '2026-04-14', current_version: '2026-04-14' },
    ]);
    expect(upgrade.headers.get('x-api-version')).toBe('2026-04-14');
    // Refusals of a body the API cannot read carry it too.
    const malformed = await world.api.call('POST', '/v1/users', {
      rawBody: '{"type":',
      headers: { 'content-type': 'application/json' },
    });
    expect([malformed.status, malformed.headers.get('x-api-version')]).toEqual([400, '2026-04-14']);
    // The gateway's own answers are not the app's: no version on them.
    const noKey = await world.api.call('GET', '/v1/users', { apiKey: null });
    expect([noKey.status, noKey.headers.get('x-api-version')]).toEqual([403, null]);
  });

  it('N7: a CORS preflight on a route is the gateway’s 200, empty, without credentials, on either base; an unknown path stays 403', async () => {
    for (const base of [world.sandbox.sandboxBaseUrl, world.sandbox.baseUrl]) {
      const answer = await fetch(`${base}/v1/users`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,x-api-key,content-type',
        },
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('');
      expect(Object.fromEntries([...answer.headers].filter(([k]) => k.startsWith('access-control')))).toEqual(
        {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'DELETE,GET,HEAD,OPTIONS,PATCH,POST,PUT',
          'access-control-allow-headers':
            'Content-Type,Authorization,X-Amz-Date,X-Api-Key,X-Amz-Security-Token',
        },
      );
    }
    const unknown = await fetch(`${world.sandbox.sandboxBaseUrl}/v1/nothing`, { method: 'OPTIONS' });
    expect(unknown.status).toBe(403);
  });
});
