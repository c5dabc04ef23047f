/**
 * The conformance kit against our own sandbox over a real socket (CI runs
 * the kit against our sandbox: every probe matches), and the write policy: nothing is written through a
 * production base URL or without allowWrites.
 */
import { CONFORMANCE_PROBES, renderReport, type PartnerSandbox } from '@partner-payments/testing';
import {
  idsWith,
  PRODUCTION_STAND_IN,
  receiverFor,
  runAgainst,
  startPinnedSandbox,
  usePinnedSandbox,
} from './conformance.fixture';

describe('conformance kit against the sandbox', () => {
  let sandbox: PartnerSandbox;
  usePinnedSandbox((s) => (sandbox = s));

  it('runs every probe with writes on: every probe matches, none skipped, and it names what it created', async () => {
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { webhooks: receiverFor(sandbox) });
    const explain = renderReport(report);
    expect({ diverge: idsWith(report, 'diverge'), error: idsWith(report, 'error') }).toEqual({
      diverge: [],
      error: [],
    });
    expect(idsWith(report, 'skipped')).toEqual([]);
    expect(report.summary.match).toBe(CONFORMANCE_PROBES.length);
    expect(report.ok).toBe(true);
    expect(report.writes).toBe(true);
    // Named: every user and recipient it created exists and carries the run tag.
    const users = report.created.filter((c) => c.kind === 'user');
    expect(users.length).toBeGreaterThanOrEqual(2);
    expect(report.created.map((c) => c.kind)).toEqual(
      expect.arrayContaining([
        'recipient',
        'virtual_account',
        'payout',
        'rfi',
        'deposit',
        'liquidation_address',
        'document',
      ]),
    );
    const counters = await sandbox.control.counters();
    // Plus the other account's user the foreignUser hook made (users.get.other-account).
    expect(counters.created.users).toBe(users.length + 1);
    const made = (kind: string) => report.created.filter((c) => c.kind === kind).length;
    expect(counters.created.recipients).toBe(made('recipient'));
    expect(counters.created.virtual_accounts).toBe(made('virtual_account'));
    // One payout and one liquidation address: the read and the idempotency probes reuse the ones
    // the create probes made (replays and conflicts create nothing).
    expect(counters.created.payouts).toBe(1);
    expect(counters.created.liquidation_addresses).toBe(1);
    expect(report.created.filter((c) => c.kind === 'payout')).toHaveLength(1);
    expect(counters.idempotentReplays).toBeGreaterThanOrEqual(5);
    // A document's download_url is a bearer-style credential (evidence §7): never in the report.
    const json = JSON.stringify(report);
    expect(json).not.toContain('/__files/');
    expect(json).not.toContain('signature=');
    expect(report.results.find((r) => r.id === 'rfis.documents.link-download')?.request).toBe(
      'GET (the link the previous answer handed out)',
    );
    expect(explain).toContain(`user ${users[0].id}`);
    expect(explain).toContain('RESULT: conforms');
  });

  it('is repeatable on the same account (a second run matches too)', async () => {
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { only: ['users.', 'recipients.'] });
    expect(idsWith(report, 'diverge')).toEqual([]);
    expect(report.summary.match).toBe(report.summary.total);
  });
});

describe('conformance kit as against the partner (no hooks: no staff, no clock)', () => {
  let sandbox: PartnerSandbox;
  usePinnedSandbox((s) => (sandbox = s));

  it('with a user verified beforehand: nothing errors, and only what needs the partner staff or clock is skipped, saying why', async () => {
    const first = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      hooks: undefined,
      only: ['users.create'],
    });
    const verifiedUserId = first.created.find((c) => c.kind === 'user')?.id ?? '';
    await sandbox.control.setUserVerificationOutcome(verifiedUserId, 'approved');
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { hooks: undefined, verifiedUserId });
    expect({ diverge: idsWith(report, 'diverge'), error: idsWith(report, 'error') }).toEqual({
      diverge: [],
      error: [],
    });
    const why = (r: { explanation?: string }) =>
      /only the partner raises RFIs/.test(r.explanation ?? '')
        ? 'rfi'
        : /open, funded virtual account/.test(r.explanation ?? '')
          ? 'funds'
          : /expired token/.test(r.explanation ?? '')
            ? 'clock'
            : /needs a deposit/.test(r.explanation ?? '')
              ? 'deposit'
              : /needs a webhook receiver/.test(r.explanation ?? '')
                ? 'receiver'
                : /another account of yours/.test(r.explanation ?? '')
                  ? 'other account'
                  : (r.explanation ?? '');
    const skipped: Record<string, number> = {};
    for (const r of report.results.filter((x) => x.outcome === 'skipped'))
      skipped[why(r)] = (skipped[why(r)] ?? 0) + 1;
    expect(skipped).toEqual({
      rfi: 20,
      funds: 9,
      clock: 1,
      deposit: 1,
      receiver: 5,
      'other account': 1,
    });
    // The preview, deposit-list and virtual-account idempotency probes ran on the activating accounts.
    for (const id of [
      'payouts.preview.fees-exceed',
      'virtual-accounts.deposits.paging',
      'virtual-accounts.idempotent-replay',
    ])
      expect(report.results.find((r) => r.id === id)?.outcome).toBe('match');
    const kinds = report.created.map((c) => c.kind);
    expect(kinds.filter((k) => k === 'virtual_account')).toHaveLength(2);
    expect(kinds).not.toContain('payout');
    expect(kinds).not.toContain('rfi');
    expect((await sandbox.control.counters()).created.payouts).toBe(0);
  });
});

describe('conformance kit write policy on a production base', () => {
  let sandbox: PartnerSandbox;
  beforeEach(async () => (sandbox = await startPinnedSandbox(PRODUCTION_STAND_IN)));
  afterEach(() => sandbox.close());

  it('against a production base URL runs read-only probes only, says so, and creates nothing despite allowWrites', async () => {
    // The root (no /sandbox) is a production base (spec 1), served here with working credentials.
    const report = await runAgainst(sandbox, sandbox.baseUrl, { allowWrites: true });
    expect(report.environment).toBe('production');
    expect(report.writes).toBe(false);
    expect(report.readOnlyReason).toMatch(
      /production: read-only probes only .* refused despite --allow-writes/,
    );
    const writeProbes = report.results.filter((r) => r.writes);
    expect(writeProbes.length).toBeGreaterThan(20);
    expect(writeProbes.every((r) => r.outcome === 'skipped')).toBe(true);
    expect(
      report.results.filter((r) => !r.writes).every((r) => r.outcome === 'match' || r.outcome === 'skipped'),
    ).toBe(true);
    const counters = await sandbox.control.counters();
    expect(counters.created).toEqual(
      expect.objectContaining({ users: 0, recipients: 0, virtual_accounts: 0, payouts: 0 }),
    );
    expect(counters.requests['POST /v1/users'] ?? 0).toBe(0);
    expect(counters.requests['POST /v1/versioning/upgrade'] ?? 0).toBe(0);
    expect(report.created).toEqual([]);
    expect(renderReport(report)).toContain('write probes: OFF: production');
  });
});

describe('conformance kit write policy', () => {
  let sandbox: PartnerSandbox;
  beforeEach(async () => (sandbox = await startPinnedSandbox()));
  afterEach(() => sandbox.close());

  it("environment 'sandbox' cannot unlock writes on a production URL; 'production' locks a sandbox URL", async () => {
    const forced = await runAgainst(sandbox, sandbox.baseUrl, { environment: 'sandbox', only: ['users.'] });
    expect(forced.writes).toBe(false);
    const locked = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      environment: 'production',
      only: ['users.'],
    });
    expect(locked.writes).toBe(false);
    expect(locked.readOnlyReason).toContain('environment is production');
    expect((await sandbox.control.counters()).created.users).toBe(0);
  });

  it('waits out a 429 once (Retry-After) and sends the same request again', async () => {
    await sandbox.control.addFault({ kind: 'rate_limit', route: 'GET /v1/countries', retryAfterSeconds: 1 });
    const started = Date.now();
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { only: ['reference-data.countries'] });
    expect(report.results.map((r) => [r.id, r.outcome])).toEqual([['reference-data.countries', 'match']]);
    expect((await sandbox.control.counters()).requests['GET /v1/countries']).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('on a sandbox base URL without allowWrites stays read-only, and read-only probes still match', async () => {
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { allowWrites: false });
    expect(report.writes).toBe(false);
    expect(report.readOnlyReason).toContain('--allow-writes');
    expect(idsWith(report, 'diverge')).toEqual([]);
    expect(report.ok).toBe(true);
    expect((await sandbox.control.counters()).created.users).toBe(0);
  });
});
