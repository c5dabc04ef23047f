import { createHash } from 'node:crypto';
import { individual, useWorld } from '../sandbox.fixture';

/** The security headers of the partner's API as its captures show them [T3raw versioning/01]. */
const CAPTURED_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const pick = (headers: Headers, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, headers.get(name)]));
const SECURITY_NAMES = Object.keys(CAPTURED_SECURITY_HEADERS);

/**
 * The app's answers and the gateway's differ in their headers (evidence §11 N4): the API behind
 * the gateway sends the security set, a weak etag and a charset; the gateway's own answers none.
 */
describe('sandbox: the API answers carry the partner’s security headers (evidence §11 N4)', () => {
  const world = useWorld({}, 'all');

  it('a success and a refusal of the API carry the captured security set, a weak etag of the body and a charset', async () => {
    const users = await world.api.call('GET', '/v1/users?limit=1');
    const refused = await world.api.call('POST', '/v1/users', {
      body: individual({ email: 'not-an-email' }),
    });
    expect([users.status, refused.status]).toEqual([200, 400]);
    for (const answer of [users, refused]) {
      expect(pick(answer.headers, SECURITY_NAMES)).toEqual(CAPTURED_SECURITY_HEADERS);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      // Express's weak etag, as captured: W/"<length in hex>-<base64 SHA-1, 27 chars>".
      const sha1 = createHash('sha1').update(answer.text).digest('base64').slice(0, 27);
      const length = Buffer.byteLength(answer.text).toString(16);
      expect(answer.headers.get('etag')).toBe(`W/"${length}-${sha1}"`);
    }
  });

  it('POST /auth (the auth function, not the API) answers plain JSON: no security set, no etag, no charset', async () => {
    const creds = world.sandbox.credentials;
    for (const password of [creds.password, 'wrong-password']) {
      const answer = await world.api.call('POST', '/auth', {
        body: { client_id: creds.clientId, password },
        auth: false,
      });
      expect(answer.status).toBe(password === creds.password ? 200 : 401);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(pick(answer.headers, [...SECURITY_NAMES, 'etag'])).toEqual(
        Object.fromEntries([...SECURITY_NAMES, 'etag'].map((n) => [n, null])),
      );
    }
  });

  it("the gateway's answers (no key, no or a forged bearer, unmatched route, other stage) have none of them and no charset", async () => {
    const answers = [
      await world.api.call('GET', '/v1/users', { apiKey: null }),
      await world.api.call('GET', '/v1/users', { auth: false }),
      await world.api.call('GET', '/v1/users', { auth: false, headers: { authorization: 'Bearer forged' } }),
      await world.api.call('GET', '/v1/conformance-no-such-route'),
      await fetch(`${world.sandbox.baseUrl}/v1/users`, {
        headers: {
          'x-api-key': world.sandbox.credentials.apiKey,
          authorization: `Bearer ${world.api.token}`,
        },
      }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() })),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 401, 401, 403, 401]);
    for (const answer of answers) {
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(pick(answer.headers, [...SECURITY_NAMES, 'etag', 'x-api-version'])).toEqual(
        Object.fromEntries([...SECURITY_NAMES, 'etag', 'x-api-version'].map((n) => [n, null])),
      );
    }
  });
});
