import { FaultStore } from './faults.store';
import { redactHeaders, routeTemplate } from '../server/telemetry.store';

describe('FaultStore', () => {
  it('a terminal fault hits `times` matching requests, then disarms', () => {
    const faults = new FaultStore();
    faults.add({ kind: 'server_error', route: 'POST /v1/users', times: 2 });
    expect(faults.take('GET /v1/users').terminal).toBeUndefined();
    expect(faults.take('POST /v1/users').terminal?.status).toBe(503);
    expect(faults.take('POST /v1/users').terminal?.kind).toBe('server_error');
    expect(faults.take('POST /v1/users').terminal).toBeUndefined();
    expect(faults.list()).toEqual([]);
  });

  it('supports wildcards in method and path, and global faults', () => {
    const faults = new FaultStore();
    faults.add({ kind: 'rate_limit', route: '* /v1/payouts/*', retryAfterSeconds: 7 });
    expect(faults.take('GET /v1/payouts/:id').terminal).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    faults.add({ kind: 'reset' });
    expect(faults.take('POST /auth').terminal?.kind).toBe('reset');
  });

  it('latency is unlimited by default and adds up; at most one terminal fault per request', () => {
    const faults = new FaultStore();
    faults.add({ kind: 'latency', latencyMs: 30 });
    faults.add({ kind: 'latency', latencyMs: 20, route: 'POST /auth' });
    faults.add({ kind: 'server_error' });
    faults.add({ kind: 'reset' });
    const first = faults.take('POST /auth');
    expect(first.latencyMs).toBe(50);
    expect(first.terminal?.kind).toBe('server_error');
    expect(faults.take('GET /x').terminal?.kind).toBe('reset');
    expect(faults.take('GET /x')).toEqual({ latencyMs: 30, terminal: undefined });
    expect(faults.list()[0].times).toBe(-1);
  });

  it('accepted_then_stall is terminal, holds 30 s by default or latencyMs, and adds no latency before', () => {
    const faults = new FaultStore();
    faults.add({ kind: 'accepted_then_stall', route: 'POST /v1/users' });
    faults.add({ kind: 'accepted_then_stall', latencyMs: 250 });
    expect(faults.take('POST /v1/users')).toEqual({
      latencyMs: 0,
      terminal: expect.objectContaining({ kind: 'accepted_then_stall', latencyMs: 30_000 }),
    });
    expect(faults.take('POST /v1/users').terminal).toMatchObject({ latencyMs: 250 });
    expect(faults.list()).toEqual([]);
  });

  it('refuses unknown kinds', () => {
    expect(() => new FaultStore().add({ kind: 'explode' as never })).toThrow('unknown fault kind');
  });
});

describe('routeTemplate and redactHeaders', () => {
  it('strips the /sandbox prefix and the query, and replaces uuids', () => {
    expect(
      routeTemplate('post', '/sandbox/v1/virtual-accounts/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b/payout?x=1'),
    ).toBe('POST /v1/virtual-accounts/:id/payout');
    expect(routeTemplate('GET', '/sandbox')).toBe('GET /');
    expect(routeTemplate('GET', '/sandboxes/v1')).toBe('GET /sandboxes/v1');
  });

  it('redacts x-api-key and authorization, keeps the rest', () => {
    expect(
      redactHeaders({
        'x-api-key': 'k',
        authorization: 'Bearer t',
        'idempotency-key': 'i',
        accept: ['a', 'b'],
      }),
    ).toEqual({
      'x-api-key': '[redacted]',
      authorization: '[redacted]',
      'idempotency-key': 'i',
      accept: 'a, b',
    });
  });
});
