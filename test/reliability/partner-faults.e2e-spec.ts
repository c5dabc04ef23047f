/**
 * Partner faults on each of the four de-duplicating POSTs (spec 4.7: users, recipients, virtual
 * accounts, payouts), through the library client against the sandbox on a real socket: a 5xx, a
 * 429 with Retry-After, latency past the client's timeout, a reset before the write and a reset
 * after it (the partner wrote, the answer was lost). Each time the client either succeeds, having
 * retried with the same Idempotency-Key, or throws a typed retryable error, and the caller's retry
 * with the same key succeeds; exactly one resource exists at the partner afterwards (the sandbox's
 * own counters). And a token expiring under 200 concurrent calls: one POST /auth, 200 successes.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerPaymentsClient } from '@partner-payments/nestjs';
import {
  PartnerConnectionError,
  PartnerRateLimitError,
  PartnerServerError,
} from '@partner-payments/nestjs/errors';
import type { FaultSpec, PartnerSandbox, ResourceKind } from '@partner-payments/testing';
import { startTestSandbox } from '../setup/app.fixture';
import { createFundedAccount, partnerClientFor, type FundedAccount } from '../setup/funded-account.fixture';
import { individual, wireAccount, wireRecipient } from '../setup/partner-inputs.fixture';
import { recordTally } from './tally.fixture';

jest.setTimeout(60_000);

// Every call of the suite has this per-attempt deadline (set-up included): 600 ms leaves a loaded CI
// machine room for a stall, and a retry of each after it.
const TIMEOUT_MS = 600;

const FAULTS: Array<[string, Omit<FaultSpec, 'route'>]> = [
  ['a 503', { kind: 'server_error', status: 503 }],
  ['a 429 with Retry-After: 1', { kind: 'rate_limit', retryAfterSeconds: 1 }],
  ['latency past the timeout', { kind: 'latency', latencyMs: 3 * TIMEOUT_MS, times: 1 }],
  ['a reset before the write', { kind: 'reset' }],
  ['a reset after the write', { kind: 'accepted_then_reset' }],
];

/** One create on each route, its body fixed before the call so every retry sends the same one. */
type Create = (key: string) => Promise<unknown>;
interface Route {
  route: string;
  kind: ResourceKind;
  prepare(): Promise<Create>;
}

describe('partner faults on the four de-duplicating POSTs (library client, sandbox)', () => {
  let sandbox: PartnerSandbox;
  let client: PartnerPaymentsClient;
  let account: FundedAccount;
  const outcomes: Array<{ right: boolean; created: number }> = [];

  const verifiedUser = async (): Promise<string> => {
    const user = await client.users.create(individual({ email: `${randomUUID()}@example.com` }));
    await sandbox.control.setUserVerificationOutcome(user.userId, 'approved');
    return user.userId;
  };
  const ROUTES: Route[] = [
    {
      route: 'POST /v1/users',
      kind: 'users',
      prepare: async () => {
        const input = individual({ email: `${randomUUID()}@example.com` });
        return (key) => client.users.create(input, { idempotencyKey: key });
      },
    },
    {
      route: 'POST /v1/recipients',
      kind: 'recipients',
      prepare: async () => {
        const input = wireRecipient(account.userId, {
          account: wireAccount(String(Date.now()).slice(-10)),
        });
        return (key) => client.recipients.create(input, { idempotencyKey: key });
      },
    },
    {
      route: 'POST /v1/virtual-accounts',
      kind: 'virtual_accounts',
      prepare: async () => {
        const input = { user_id: await verifiedUser(), bank: 'bank_a' };
        return (key) => client.virtualAccounts.create(input, { idempotencyKey: key });
      },
    },
    {
      route: 'POST /v1/virtual-accounts/:id/payout',
      kind: 'payouts',
      prepare: async () => {
        const input = { amount: '7.00', currency: 'USD', recipient_id: account.recipientId };
        return (key) => client.payouts.create(account.virtualAccountId, input, { idempotencyKey: key });
      },
    },
  ];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    client = partnerClientFor(sandbox, {
      timeoutMs: TIMEOUT_MS,
      maxRetries: 2,
      retry: { initialDelayMs: 20, maxDelayMs: 100, minDelayMs: 10, maxRetryAfterMs: 1500 },
    });
    account = await createFundedAccount({ client, baseUrl: sandbox.baseUrl }, 'faults');
  });
  afterAll(async () => {
    const wrong = outcomes.filter((o) => !o.right).length;
    recordTally({
      suite: 'partner faults on the 4 keyed POSTs',
      database: 'n/a',
      inputsTried: outcomes.length,
      refusedRight: outcomes.length - wrong,
      wrong,
      lost: outcomes.filter((o) => o.created < 1).length,
      duplicate: outcomes.filter((o) => o.created > 1).length,
    });
    await sandbox?.close();
  });

  const cases = ROUTES.flatMap((r) => FAULTS.map(([label, fault]) => [r.route, label, r, fault] as const));

  it.each(cases)('%s, %s: one resource, one Idempotency-Key', async (_route, _label, route, fault) => {
    const create = await route.prepare();
    const key = randomUUID();
    const before = await sandbox.control.counters();
    const logStart = (await sandbox.control.requestLog()).at(-1)?.seq ?? 0;
    const started = Date.now();
    await sandbox.control.addFault({ ...fault, route: route.route });
    let refusal: unknown = null;
    try {
      await create(key);
    } catch (error) {
      const retryable =
        error instanceof PartnerServerError ||
        error instanceof PartnerRateLimitError ||
        error instanceof PartnerConnectionError;
      // A refusal the fault does not explain is a wrong outcome: counted below, then the test fails.
      if (retryable) await create(key).catch((again: unknown) => (refusal = again));
      else refusal = error;
    } finally {
      await sandbox.control.clearFaults();
    }
    // A request still held by the latency fault is carried out when it wakes: count after it.
    const held = fault.kind === 'latency' ? (fault.latencyMs ?? 0) + 200 - (Date.now() - started) : 0;
    if (held > 0) await new Promise((r) => setTimeout(r, held));
    const created = (await sandbox.control.counters()).created[route.kind] - before.created[route.kind];
    const keys = new Set(
      (await sandbox.control.requestLog())
        .filter((e) => e.seq > logStart && e.route === route.route)
        .map((e) => e.headers['idempotency-key']),
    );
    outcomes.push({ right: !refusal && created === 1 && keys.size === 1 && keys.has(key), created });
    if (refusal) throw refusal;
    expect({ created, keys: [...keys] }).toEqual({ created: 1, keys: [key] });
  });
});

describe('a token expiring under 200 concurrent calls (library client, sandbox)', () => {
  let sandbox: PartnerSandbox;
  // 200 unpaced calls at once (partnerClientFor turns the client limiter off) exceed the partner's
  // 20/s, burst 50, which the sandbox enforces by default (evidence §1): this test is about the
  // token refresh, so the sandbox's limit is off too.
  beforeAll(async () => (sandbox = await startTestSandbox({ rateLimit: false })));
  afterAll(() => sandbox?.close());

  it('makes exactly one POST /auth, and all 200 calls succeed', async () => {
    const client = partnerClientFor(sandbox);
    await client.users.list({ limit: 1 }); // a token in the cache
    await sandbox.control.expireTokensNow();
    const before = await sandbox.control.counters();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => client.users.list({ limit: 1 })),
    );
    const after = await sandbox.control.counters();
    const failed = results.filter((r) => r.status === 'rejected').length;
    const authCalls = after.authCalls - before.authCalls;
    recordTally({
      suite: 'token expiry under 200 calls',
      database: 'n/a',
      inputsTried: results.length,
      wrong: failed + Math.abs(authCalls - 1),
    });
    expect({ failed, authCalls }).toEqual({ failed: 0, authCalls: 1 });
  });
});
