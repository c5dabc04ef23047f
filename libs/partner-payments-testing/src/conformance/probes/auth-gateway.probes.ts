/** Authentication and the gateway in front of every route (spec 4.1, 5, 7.5; evidence §1). */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe } from '../probe.types';
import { t } from '../shape.util';
import { contract, errorType, evidence, flatError } from './probe-shapes.util';

export const AUTH_GATEWAY_PROBES: ConformanceProbe[] = [
  {
    id: 'auth.token',
    area: 'auth',
    behaviour: 'POST /auth with x-api-key and { client_id, password } answers a bearer token',
    sources: [contract('§4.1'), evidence('[T2s README]')],
    knownConflict:
      'the partner sandbox reports expires_in 86400 [T2s README][T1s §3.7]; the shape is the same',
    writes: false,
    request: (ctx) => ({
      method: 'POST',
      path: '/auth',
      auth: 'api-key-only',
      body: ctx.authBody(),
    }),
    expect: {
      status: 200,
      shape: t.object({
        message: t.string,
        data: t.object({ access_token: t.string, expires_in: t.integer, token_type: t.enum('Bearer') }),
      }),
    },
    sandbox: '`expires_in` 3600 (the contract); `--token-ttl 86400` reproduces the partner sandbox',
  },
  {
    id: 'auth.rejected-pair',
    area: 'auth',
    behaviour: 'POST /auth with a wrong password answers 401 { code: unauthorized, message }',
    sources: [contract('§5.7, §7.2')],
    knownConflict: 'T1 saw 500 for an unknown client_id [T1]; this probe sends a known client_id',
    writes: false,
    request: (ctx) => ({
      method: 'POST',
      path: '/auth',
      auth: 'api-key-only',
      body: { ...ctx.authBody(), password: `wrong-${randomUUID()}` },
    }),
    expect: { status: 401, shape: flatError('unauthorized') },
  },
  {
    id: 'auth.missing-api-key',
    area: 'auth',
    behaviour:
      "POST /auth without x-api-key (the right client_id and password) answers the gateway's 403 { message: 'Forbidden' } with an x-amzn-errortype header, as on every other path",
    sources: [evidence('[T3r DRIFT-6]'), contract('§4.1, §5.2')],
    writes: false,
    request: (ctx) => ({ method: 'POST', path: '/auth', auth: 'none', body: ctx.authBody() }),
    expect: { status: 403, shape: t.object({ message: t.string }), headers: ['x-amzn-errortype'] },
  },
  {
    id: 'gateway.missing-api-key',
    area: 'gateway',
    behaviour:
      "A call with a bearer token but no x-api-key answers the gateway's 403 { message: 'Forbidden' } with an x-amzn-errortype header",
    sources: [evidence('[T3r DRIFT-6, 49]'), contract('§5.4')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1', auth: 'bearer-only' },
    expect: { status: 403, shape: t.object({ message: t.string }), headers: ['x-amzn-errortype'] },
  },
  {
    id: 'gateway.missing-bearer',
    area: 'gateway',
    behaviour: 'A call with x-api-key but no bearer answers 401 { code, message }',
    sources: [contract('§5.4, §5.7')],
    knownConflict:
      "the partner's gateway answers 401 { message: 'Unauthorized' } without code [T3r DRIFT-12]; CONTRACT WINS",
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1', auth: 'api-key-only' },
    expect: { status: 401, shape: flatError('unauthorized') },
  },
  {
    id: 'gateway.bad-bearer',
    area: 'gateway',
    behaviour:
      'A bearer token the partner never issued (not a JWT) answers 401 { code: unauthorized, message }',
    sources: [contract('§5.7'), evidence('§11 N8 [T3raw security/jwt-attack-suite/02]')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1', auth: 'bad-bearer' },
    expect: { status: 401, shape: flatError('unauthorized') },
  },
  {
    id: 'gateway.unmatched-route',
    area: 'gateway',
    behaviour: 'An unmatched route answers 403 with code invalid_request',
    sources: [contract('§7.5'), evidence('[T3r DRIFT-39, 52]')],
    knownConflict:
      "the partner's gateway answers the 403 with a MissingAuthenticationTokenException body [T3r DRIFT-39, 52]; CONTRACT WINS on the body",
    writes: false,
    request: { method: 'GET', path: '/v1/conformance-no-such-route' },
    expect: { status: 403, shape: flatError('invalid_request') },
  },
  {
    id: 'gateway.key-management',
    area: 'gateway',
    behaviour: 'There is no key-management route: probing one answers 403 invalid_request',
    sources: [contract('§5.6')],
    writes: false,
    request: { method: 'GET', path: '/v1/api-keys' },
    expect: { status: 403, shape: flatError('invalid_request') },
  },
];

/** spec 5.5, 5.7: an expired token answers 401; the client re-authenticates (no refresh flow). */
AUTH_GATEWAY_PROBES.push({
  id: 'gateway.expired-bearer',
  area: 'gateway',
  behaviour:
    'An expired bearer token answers 401 { code: unauthorized, message }; POST /auth again gives a working one',
  sources: [contract('§5.5, §5.7')],
  knownConflict:
    "the partner's fixture for an expired token is { message: 'The incoming token has expired' } [T2 KiraClientTests], a fixture, not a capture",
  writes: false,
  request: async (ctx) => ({ method: 'GET', path: '/v1/users?limit=1', bearer: await ctx.expireToken() }),
  expect: { status: 401, shape: flatError('unauthorized') },
  verify: async (_o, ctx) => {
    const again = await ctx.send({ method: 'GET', path: '/v1/users?limit=1' });
    return again.status === 200 ? [] : [`after POST /auth again: expected 200, got ${again.status}`];
  },
});

/** The gateway and the stages as the partner's runtime captures show them (evidence §11 N1, N3, N5, N7). */
AUTH_GATEWAY_PROBES.push(
  {
    id: 'gateway.other-stage-api-key',
    area: 'gateway',
    behaviour:
      "POST /auth on the other stage's base with this stage's api key answers the gateway's 403 { message: 'Forbidden' } (ForbiddenException)",
    sources: [evidence('§11 N1, C2 [T3raw versioning/03]')],
    writes: false,
    request: (ctx) => ({
      method: 'POST',
      path: '(other stage)/auth',
      url: ctx.otherStageUrl('/auth'),
      auth: 'api-key-only',
      body: ctx.authBody(),
    }),
    expect: { status: 403, shape: t.object({ message: t.enum('Forbidden') }), headers: ['x-amzn-errortype'] },
    verify: errorType('ForbiddenException'),
  },
  {
    id: 'gateway.other-stage-bearer',
    area: 'gateway',
    behaviour:
      "A call on the other stage's base with this stage's api key and bearer answers the gateway's 401 { message: 'Unauthorized' } (UnauthorizedException)",
    sources: [evidence('§11 N1, N3 [T3raw versioning/02, 04]')],
    writes: false,
    request: (ctx) => ({
      method: 'GET',
      path: '(other stage)/v1/users?limit=1',
      url: ctx.otherStageUrl('/v1/users?limit=1'),
    }),
    expect: {
      status: 401,
      shape: t.object({ message: t.enum('Unauthorized') }),
      headers: ['x-amzn-errortype'],
    },
    verify: errorType('UnauthorizedException'),
  },
  {
    id: 'gateway.api-version-header',
    area: 'gateway',
    behaviour:
      'An answer to a call without X-Api-Version carries x-api-version: the version in force (the pin), a date string',
    sources: [evidence('§11 N5 [T3raw automation/load/rate-limit-discovery]'), contract('§9.2')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1' },
    expect: { status: 200, shape: t.object({}), headers: ['x-api-version'] },
    verify: (o) =>
      /^\d{4}-\d{2}-\d{2}$/.test(o.headers.get('x-api-version') ?? '')
        ? []
        : [`header x-api-version: expected a date string, got ${o.headers.get('x-api-version')}`],
  },
  {
    id: 'gateway.cors-preflight',
    area: 'gateway',
    behaviour:
      'OPTIONS /v1/users (a CORS preflight, no credentials) answers 200 with an empty body, allow-origin *, and allow-headers without Idempotency-Key or X-Api-Version',
    sources: [evidence('§11 N7 [T3raw security/security-headers-and-tls/02]')],
    writes: false,
    request: { method: 'OPTIONS', path: '/v1/users', auth: 'none' },
    expect: {
      status: 200,
      shape: t.nonJson,
      headers: [
        'access-control-allow-origin',
        'access-control-allow-methods',
        'access-control-allow-headers',
      ],
    },
    verify: (o) => {
      const allowed = (o.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
      const problems =
        o.headers.get('access-control-allow-origin') === '*' ? [] : ['allow-origin: expected *'];
      if (!allowed.includes('x-api-key')) problems.push('allow-headers: expected to list X-Api-Key');
      if (allowed.includes('idempotency-key') || allowed.includes('x-api-version'))
        problems.push('allow-headers: lists Idempotency-Key or X-Api-Version, which the partner does not');
      return problems;
    },
  },
);
