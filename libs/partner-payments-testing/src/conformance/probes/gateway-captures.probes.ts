/**
 * The answers' headers, the bearer token and the stages' routes as the partner's raw captures show
 * them (evidence §11 N2, N4, N8).
 */
import type { ConformanceProbe, Observation } from '../probe.types';
import { t } from '../shape.util';
import { errorType, evidence } from './probe-shapes.util';

/** A divergence for each header of `expected` whose value differs. */
const headerValues = (expected: Record<string, string>) => (o: Observation) =>
  Object.entries(expected)
    .filter(([name, value]) => o.headers.get(name) !== value)
    .map(([name, value]) => `header ${name}: expected ${value}, got ${o.headers.get(name)}`);

export const GATEWAY_CAPTURE_PROBES: ConformanceProbe[] = [
  {
    id: 'gateway.app-security-headers',
    area: 'gateway',
    behaviour:
      "An answer of the API (behind the gateway) carries helmet's security headers, a weak etag and content-type application/json; charset=utf-8",
    sources: [evidence('§11 N4 [T3raw versioning/01-pin-no-prefix-success]')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1' },
    expect: {
      status: 200,
      shape: t.object({}),
      headers: ['content-security-policy', 'strict-transport-security', 'etag'],
    },
    verify: (o) => [
      ...headerValues({
        'content-type': 'application/json; charset=utf-8',
        'x-dns-prefetch-control': 'off',
        'x-frame-options': 'SAMEORIGIN',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      })(o),
      ...(/^W\/"/.test(o.headers.get('etag') ?? '') ? [] : [`header etag: expected a weak etag`]),
    ],
  },
  {
    id: 'gateway.plain-content-type',
    area: 'gateway',
    behaviour:
      "The gateway's own answer (no x-api-key) has content-type application/json without a charset and none of the API's security headers",
    sources: [evidence('§11 N3, N4 [T3raw security/security-headers-and-tls/04, versioning/01]')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1', auth: 'bearer-only' },
    expect: { status: 403, shape: t.object({ message: t.string }), headers: ['x-amzn-errortype'] },
    verify: (o) => [
      ...headerValues({ 'content-type': 'application/json' })(o),
      ...['x-frame-options', 'content-security-policy', 'x-api-version']
        .filter((name) => o.headers.has(name))
        .map((name) => `header ${name}: expected none on the gateway's answer`),
    ],
  },
  {
    id: 'gateway.tampered-bearer',
    area: 'gateway',
    behaviour:
      "The run's bearer token with one character of its signature changed answers the gateway's 403 { Message: 'Access Denied' } (AccessDeniedException)",
    sources: [evidence('§11 N8 [T3raw security/jwt-attack-suite/02]')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1', auth: 'tampered-bearer' },
    expect: {
      status: 403,
      shape: t.object({ Message: t.enum('Access Denied') }),
      headers: ['x-amzn-errortype'],
    },
    verify: errorType('AccessDeniedException'),
  },
  {
    id: 'gateway.simulate-deposit-not-on-production',
    area: 'gateway',
    behaviour:
      "POST /v1/virtual-accounts/{id}/simulate-deposit on the other stage's base (production) answers 403: the route exists on the sandbox stage only",
    sources: [evidence('§11 N2 [T3raw versioning/05]')],
    writes: false,
    request: (ctx) => ({
      method: 'POST',
      path: '(other stage)/v1/virtual-accounts/{id}/simulate-deposit',
      url: ctx.otherStageUrl('/v1/virtual-accounts/00000000-0000-4000-8000-000000000000/simulate-deposit'),
      body: { amount: '10.00', currency: 'USD' },
    }),
    expect: { status: 403, shape: t.object({ message: t.string }) },
  },
];
