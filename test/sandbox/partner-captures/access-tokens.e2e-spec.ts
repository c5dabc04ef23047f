import { createHmac } from 'node:crypto';
import { startPartnerSandbox } from '@partner-payments/testing';
import { Api, useWorld } from '../sandbox.fixture';

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const read = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
/** The first character of the signature changed, as the partner's capture did. */
const flipSignature = (token: string) => {
  const [header, claims, signature] = token.split('.');
  return `${header}.${claims}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
};

/**
 * The bearer token as the partner's captures show it (evidence §11 N8 [T3raw
 * security/jwt-attack-suite]): an RS256 JWT with Cognito's claims; a changed claim or signature
 * is the gateway's 403, anything that is not this key's RS256 JWT its 401.
 */
describe('sandbox: access tokens are RS256 JWTs, refused as the partner refuses forgeries (evidence §11 N8)', () => {
  const world = useWorld({}, 'all');
  const get = (token: string) =>
    world.api.call('GET', '/v1/users?limit=1', {
      auth: false,
      headers: { authorization: `Bearer ${token}` },
    });

  it('POST /auth answers an RS256 JWT with a kid and the Cognito access-token claims, exp = iat + expires_in', async () => {
    const [header, claims, signature] = world.api.token!.split('.');
    expect(read(header)).toEqual({ kid: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/), alg: 'RS256' });
    const body = read(claims);
    expect(Object.keys(body).sort()).toEqual([
      'auth_time',
      'client_id',
      'exp',
      'iat',
      'iss',
      'jti',
      'scope',
      'sub',
      'token_use',
      'version',
    ]);
    expect(body).toMatchObject({ token_use: 'access', version: 2, exp: body.iat + 3600 });
    // No credential inside: the token's client id is not the client_id sent to POST /auth.
    expect(claims).not.toContain(Buffer.from(world.sandbox.credentials.clientId).toString('base64url'));
    expect(JSON.stringify(body)).not.toContain(world.sandbox.credentials.clientId);
    expect(signature).toHaveLength(342); // a 2048-bit RSA signature
    expect((await get(world.api.token!)).status).toBe(200);
  });

  it('a changed claim or signature answers 403 AccessDeniedException { Message: "Access Denied" }', async () => {
    const [header, claims, signature] = world.api.token!.split('.');
    const tamperedClaim = `${header}.${part({ ...read(claims), client_id: 'someone-else' })}.${signature}`;
    for (const token of [tamperedClaim, flipSignature(world.api.token!)]) {
      const answer = await get(token);
      expect([answer.status, answer.text, answer.headers.get('x-amzn-errortype')]).toEqual([
        403,
        '{"Message":"Access Denied"}',
        'AccessDeniedException',
      ]);
    }
  });

  it('alg none, a removed kid, HS256 confusion and garbage answer 401 { code: unauthorized } (spec 5.7)', async () => {
    const [header, claims, signature] = world.api.token!.split('.');
    const { kid } = read(header);
    const hs256 = (key: string) => {
      const signed = `${part({ kid, alg: 'HS256' })}.${claims}`;
      return `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
    };
    const forged = [
      `${part({ alg: 'none' })}.${claims}.`,
      `${part({ kid, alg: 'none' })}.${claims}.${signature}`,
      `${part({ alg: 'RS256' })}.${claims}.${signature}`,
      `${part({ kid: '../../../dev/null', alg: 'RS256' })}.${claims}.${signature}`,
      hs256(''),
      hs256('secret'),
      'garbage-garbage-garbage',
    ];
    for (const token of forged) {
      const answer = await get(token);
      expect([answer.status, answer.body.code, answer.headers.get('x-amzn-errortype')]).toEqual([
        401,
        'unauthorized',
        'UnauthorizedException',
      ]);
    }
  });

  it("another sandbox's token (signed with that sandbox's own key pair) answers 401 here", async () => {
    const other = await startPartnerSandbox({ rateLimit: false });
    try {
      const api = await new Api(other.sandboxBaseUrl, other.credentials).login();
      expect((await api.call('GET', '/v1/users?limit=1')).status).toBe(200);
      expect((await get(api.token!)).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
