/**
 * Probes check what their tags say, not less: each is run against a stand-in that does the thing
 * the tag rules out, and must not match.
 *  - users.verifications.key-reuse: "the same key with a different body gives a second 201"
 *    [T3r DRIFT-16, 17, 25], so a replay of the first verification (same id) is not conformance.
 *  - users.no-instant-verification: CREATED -> VERIFYING -> REVIEW in ~10 s, "then it stays in
 *    REVIEW" [D known-limitations][T3r DRIFT-23]: a user still on its way after the bound is skipped
 *    (saying so), not a match; one that leaves REVIEW for VERIFIED on its own diverges.
 *  - users.get.other-account: another account's user answers as a missing one [§11 N14], so an
 *    answer that tells them apart diverges.
 *  - recipients.idempotency-race.fresh-keys: ten keys make ten recipients [§11 N25], so a partner
 *    that de-duplicates by content diverges.
 */
import { sandboxConformanceHooks, startPartnerSandbox, type PartnerSandbox } from '@partner-payments/testing';
import { runAgainst, usePinnedSandbox } from './conformance.fixture';
import { apiHeaders, startRewritingProxy } from './divergent-stand-in.fixture';

const VERIFICATIONS = /^POST \/v1\/users\/[0-9a-f-]{36}\/verifications$/;
const GET_USER = /^GET \/v1\/users\/[0-9a-f-]{36}$/;

describe('conformance probes check what their evidence tags say', () => {
  let sandbox: PartnerSandbox;
  usePinnedSandbox((s) => (sandbox = s));

  it('users.verifications.key-reuse matches the sandbox and diverges on a replay of the first verification', async () => {
    const plain = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      only: ['users.verifications.key-reuse'],
    });
    expect(plain.results.map((r) => [r.id, r.outcome])).toEqual([['users.verifications.key-reuse', 'match']]);

    const firstByKey = new Map<string, string>();
    const replaying = await startRewritingProxy(sandbox.sandboxBaseUrl, {
      rewrite: (route, key, _body, answer) => {
        if (VERIFICATIONS.test(route) && key && answer.status === 201) firstByKey.set(key, answer.text);
        return answer.text;
      },
      // The old way: a reused key answers the first verification again, 201, whatever the body.
      before: (route, key) => (VERIFICATIONS.test(route) && key ? firstByKey.get(key) : undefined),
    });
    try {
      const report = await runAgainst(sandbox, replaying.baseUrl, {
        only: ['users.verifications.key-reuse'],
      });
      const [result] = report.results;
      expect(result.outcome).toBe('diverge');
      expect(result.differences).toEqual([
        'body.id: expected another verification than the first (a second one), got the same id',
      ]);
      expect(result.source).toContain('[T3r DRIFT-16, 17, 25]');
    } finally {
      await replaying.close();
    }
  });

  it('users.no-instant-verification: REVIEW matches; still VERIFYING after the bound is skipped, not a match', async () => {
    const plain = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      only: ['users.no-instant-verification'],
    });
    expect(plain.results.map((r) => [r.id, r.outcome])).toEqual([['users.no-instant-verification', 'match']]);

    // A partner slower than the bound: each step takes 60 s, the kit waits 1 s.
    const slow = await startPartnerSandbox({ quiet: true, verificationDelayMs: 60_000 });
    try {
      const report = await runAgainst(slow, slow.sandboxBaseUrl, {
        only: ['users.no-instant-verification'],
        settleMs: 1000,
      });
      const [result] = report.results;
      expect(result.outcome).toBe('skipped');
      expect(result.explanation).toMatch(/still (CREATED|VERIFYING) after 1000 ms.*raise --settle-ms/);
    } finally {
      await slow.close();
    }
  });

  it('users.no-instant-verification diverges when REVIEW turns into VERIFIED on its own a moment later', async () => {
    const reviewReads = new Map<string, number>();
    const flipping = await startRewritingProxy(sandbox.sandboxBaseUrl, {
      rewrite: (route, _key, _body, answer) => {
        if (!GET_USER.test(route) || answer.status !== 200) return answer.text;
        const user = JSON.parse(answer.text) as { id: string; status: string };
        if (user.status !== 'REVIEW') return answer.text;
        // The kit's poll and its observed read see REVIEW; from the read after that on the user is
        // VERIFIED, as a partner that verifies on its own right after REVIEW would answer.
        const reads = (reviewReads.get(user.id) ?? 0) + 1;
        reviewReads.set(user.id, reads);
        return reads <= 2 ? answer.text : JSON.stringify({ ...user, status: 'VERIFIED' });
      },
    });
    try {
      const report = await runAgainst(sandbox, flipping.baseUrl, { only: ['users.no-instant-verification'] });
      const [result] = report.results;
      expect(result.outcome).toBe('diverge');
      expect(result.differences).toEqual(['body.status a moment later: expected REVIEW, got "VERIFIED"']);
    } finally {
      await flipping.close();
    }
  });

  it("users.get.other-account matches the sandbox and diverges when another account's user answers unlike a missing one", async () => {
    const plain = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { only: ['users.get.other-account'] });
    expect(plain.results.map((r) => [r.id, r.outcome])).toEqual([['users.get.other-account', 'match']]);

    // A partner that gives away that the id exists, under another account.
    const foreign = new Set<string>();
    const hooks = sandboxConformanceHooks(sandbox.baseUrl);
    const telling = await startRewritingProxy(sandbox.sandboxBaseUrl, {
      rewrite: (route, _key, _body, answer) => {
        const id = route.split('/').pop() ?? '';
        return GET_USER.test(route) && foreign.has(id)
          ? JSON.stringify({ code: 'not_found', message: 'User belongs to another client' })
          : answer.text;
      },
    });
    try {
      const report = await runAgainst(sandbox, telling.baseUrl, {
        only: ['users.get.other-account'],
        hooks: {
          ...hooks,
          foreignUser: async () => {
            const id = await (hooks.foreignUser as () => Promise<string>)();
            foreign.add(id);
            return id;
          },
        },
      });
      expect(report.results[0].outcome).toBe('diverge');
      expect(report.results[0].differences).toEqual([
        'body: expected the answer a missing id gets (404, its id in the message), got another (404)',
      ]);
    } finally {
      await telling.close();
    }
  });

  it('recipients.idempotency-race.fresh-keys matches the sandbox and diverges on a partner that de-duplicates by content', async () => {
    const id = 'recipients.idempotency-race.fresh-keys';
    const plain = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { only: [id] });
    expect(plain.results.map((r) => [r.id, r.outcome])).toEqual([[id, 'match']]);

    // Every create with a body seen before answers the first one's recipient, whatever its key.
    const byBody = new Map<string, Promise<{ status: number; text: string }>>();
    const deduplicating = await startRewritingProxy(sandbox.sandboxBaseUrl, {
      setUp: (app) =>
        app.post('/sandbox/v1/recipients', async (req, res) => {
          const body = (req.body as Buffer).toString();
          let first = byBody.get(body);
          if (!first) {
            const headers = apiHeaders(req);
            first = fetch(`${sandbox.sandboxBaseUrl}/v1/recipients`, { method: 'POST', headers, body }).then(
              async (a) => ({ status: a.status, text: await a.text() }),
            );
            byBody.set(body, first);
          }
          const answer = await first;
          res.status(answer.status).type('json').end(answer.text);
        }),
    });
    try {
      const report = await runAgainst(sandbox, deduplicating.baseUrl, { only: [id] });
      expect(report.results[0].outcome).toBe('diverge');
      expect(report.results[0].differences).toEqual(['body.recipient_id: expected ten recipients, got 1']);
    } finally {
      await deduplicating.close();
    }
  });
});
