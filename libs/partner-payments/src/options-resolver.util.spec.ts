import { PartnerConfigurationError } from './errors/partner-api.errors';
import { resolvePartnerOptions } from './options-resolver.util';
import type { PartnerPaymentsModuleOptions } from './partner-payments.options';

const valid: PartnerPaymentsModuleOptions = {
  baseUrl: 'https://api.partner.example',
  apiKey: 'k',
  clientId: 'c',
  password: 'p',
};

const failure = (
  o: Partial<PartnerPaymentsModuleOptions> | Record<string, unknown>,
): PartnerConfigurationError => {
  try {
    resolvePartnerOptions({ ...valid, ...o } as PartnerPaymentsModuleOptions);
  } catch (e) {
    if (e instanceof PartnerConfigurationError) return e;
    throw e;
  }
  throw new Error('expected a PartnerConfigurationError');
};

describe('resolvePartnerOptions', () => {
  it('merges every default', () => {
    const r = resolvePartnerOptions(valid);
    expect(r).toMatchObject({
      environment: 'sandbox',
      baseUrl: 'https://api.partner.example',
      apiBaseUrl: 'https://api.partner.example/sandbox',
      clientUuid: null,
      apiVersion: '2026-04-14',
      apiVersionOverrides: { rfis: '2026-06-01' },
      sendVersionHeader: 'always',
      timeoutMs: 30_000,
      maxRetries: 2,
      tokenRefreshSkewSeconds: 300,
      referenceDataCacheTtlMs: 86_400_000,
      rateLimit: { requestsPerSecond: 20, burst: 50 },
      retry: { initialDelayMs: 500, maxDelayMs: 8000, minDelayMs: 100, maxRetryAfterMs: 30_000 },
      onHttpEvent: null,
    });
  });

  it('joins the sandbox prefix once, keeps a base path prefix, and production uses the base as is', () => {
    expect(resolvePartnerOptions({ ...valid, baseUrl: 'https://h.example/api/' }).apiBaseUrl).toBe(
      'https://h.example/api/sandbox',
    );
    expect(resolvePartnerOptions({ ...valid, baseUrl: 'https://h.example/sandbox' }).apiBaseUrl).toBe(
      'https://h.example/sandbox',
    );
    expect(
      resolvePartnerOptions({ ...valid, environment: 'production', baseUrl: 'https://h.example/api' })
        .apiBaseUrl,
    ).toBe('https://h.example/api');
  });

  it.each(['apiKey', 'clientId', 'password', 'baseUrl'])('a missing %s fails naming the field', (field) => {
    const e = failure({ [field]: undefined });
    expect(e.field).toBe(field);
    expect(e.message).toContain(`"${field}"`);
    expect(failure({ [field]: '  ' }).field).toBe(field);
  });

  it('never puts a secret value in the message', () => {
    const e = failure({ apiKey: 'super-secret', timeoutMs: -1 });
    expect(e.message).not.toContain('super-secret');
  });

  it.each([
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: Number.NaN }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetries', { maxRetries: 1.5 }],
    ['tokenRefreshSkewSeconds', { tokenRefreshSkewSeconds: -5 }],
    ['referenceDataCacheTtlMs', { referenceDataCacheTtlMs: -1 }],
    ['referenceDataCacheTtlMs', { referenceDataCacheTtlMs: Number.NaN }],
    ['rateLimit.requestsPerSecond', { rateLimit: { requestsPerSecond: 0, burst: 5 } }],
    ['rateLimit.burst', { rateLimit: { requestsPerSecond: 5, burst: 0 } }],
    ['rateLimit.budget', { rateLimit: { requestsPerSecond: 5, burst: 5, budget: {} } }],
    ['retry.minDelayMs', { retry: { minDelayMs: 500, maxDelayMs: 100 } }],
    ['environment', { environment: 'staging' }],
    ['sendVersionHeader', { sendVersionHeader: 'never' }],
    ['apiVersion', { apiVersion: 'latest' }],
    ['apiVersionOverrides.rfis', { apiVersionOverrides: { rfis: '2026/06/01' } }],
    ['baseUrl', { baseUrl: 'api.partner.example' }],
    ['baseUrl', { baseUrl: 'ftp://api.partner.example' }],
    ['baseUrl', { baseUrl: 'https://api.partner.example/?x=1' }],
    ['timeoutMs', { timeoutMs: '1000' }],
  ])('bad %s fails the boot', (field, o) => {
    expect(failure(o as Record<string, unknown>).field).toBe(field);
  });

  it('resolves the webhook options with the rest: defaults, and a bad value names its field at boot', () => {
    expect(resolvePartnerOptions(valid).webhookConfig).toMatchObject({
      configured: false,
      secrets: [],
      path: '/webhooks/partner',
      maxBodyBytes: 1_048_576,
    });
    expect(
      resolvePartnerOptions({ ...valid, webhooks: { secrets: ['s1', 's2'], path: 'hooks/kira/' } })
        .webhookConfig,
    ).toMatchObject({ configured: true, secrets: ['s1', 's2'], path: '/hooks/kira' });
    expect(failure({ webhooks: { secrets: [''] } }).message).toContain('webhooks.secrets');
    expect(failure({ webhooks: { secrets: ['s'], batching: { maxRecordRows: 0 } } }).message).toContain(
      'webhooks.batching.maxRecordRows',
    );
  });

  it('rateLimit: false turns the limiter off', () => {
    expect(resolvePartnerOptions({ ...valid, rateLimit: false }).rateLimit).toBe(false);
  });

  it('rateLimit.budget is kept (a store shared by replicas); without it the bucket is in-process', () => {
    const budget = { reserve: () => 0 };
    const limit = { requestsPerSecond: 10, burst: 20 };
    expect(resolvePartnerOptions({ ...valid, rateLimit: { ...limit, budget } }).rateLimit).toEqual({
      ...limit,
      budget,
    });
    expect(resolvePartnerOptions({ ...valid, rateLimit: limit }).rateLimit).toEqual(limit);
  });

  it('warns when production credentials would travel over plain http (not for loopback, not in the sandbox)', () => {
    const warnings = (o: Partial<PartnerPaymentsModuleOptions>): string[] => {
      const warn = jest.fn();
      resolvePartnerOptions({
        ...valid,
        apiKey: 'live_key_do_not_log',
        ...o,
        logger: { log: jest.fn(), error: jest.fn(), warn },
      });
      return warn.mock.calls.map((c) => String(c[0]));
    };
    const prodHttp = warnings({ environment: 'production', baseUrl: 'http://api.partner.example' });
    expect(prodHttp).toHaveLength(1);
    expect(prodHttp[0]).toContain('plain http in production');
    expect(prodHttp[0]).not.toContain('live_key_do_not_log');
    expect(warnings({ environment: 'production', baseUrl: 'https://api.partner.example' })).toEqual([]);
    expect(warnings({ environment: 'production', baseUrl: 'http://127.0.0.1:4010' })).toEqual([]);
    expect(warnings({ environment: 'sandbox', baseUrl: 'http://partner.test' })).toEqual([]);
  });
});
