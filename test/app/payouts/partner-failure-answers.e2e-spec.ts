/**
 * Partner failures on the app's endpoints other than POST /payouts (which auth-outage.e2e-spec.ts
 * covers): every partner failure is answered by its cause. The partner unavailable (5xx, 429,
 * timeout, reset) is a 502 "retry later"; our credentials or account refused (401/403 after the
 * re-authentication, or any failure of the token call itself) is a 502 naming the app's
 * configuration, logged as an error; the partner refusing the request passes through; our own
 * validation is a 400 naming the field, with no partner call. Never a 500 with a stack, never a
 * partner 4xx that is really our token call. SQLite: nothing here is about storage.
 */
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { appRequest, CapturingLogger, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount, type FundedAccount } from '../../setup/funded-account.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

describe('partner failures on the read-through and job endpoints (SQLite)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;
  const logs = new CapturingLogger();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'failanswers');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, { PARTNER_TIMEOUT_MS: '1000', PARTNER_MAX_RETRIES: '0' }, sandbox, {
      logger: logs,
    });
    account = await createFundedAccount(running, 'failanswers');
  });
  afterEach(() => sandbox.control.clearFaults());
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const http = () => appRequest(running);
  const balance = () => http().get(`/virtual-accounts/${account.virtualAccountId}/balance`);
  /** The token call fails: the cached token expires at the partner, and /auth answers `status`. */
  const authFails = async (status: number) => {
    await sandbox.control.expireTokensNow();
    await sandbox.control.addFault({ kind: 'server_error', status, route: 'POST /auth', times: 50 });
  };
  const linesSince = (mark: number) => logs.lines.slice(mark).join('\n');

  it.each([404, 400])(
    'GET /virtual-accounts/:id/balance while /auth answers %i: 502 naming the configuration, logged as an error',
    async (status) => {
      const mark = logs.lines.length;
      await authFails(status);
      const answer = await balance();
      expect(answer.status).toBe(502);
      expect(answer.body.error).not.toBe('PartnerRefused');
      expect(answer.body.message).toMatch(/credentials or account/);
      expect(linesSince(mark)).toMatch(/credentials or account/);
    },
  );

  it('GET /virtual-accounts/:id/balance rate-limited by the partner: 502 retry later, not a 429 of the caller', async () => {
    await sandbox.control.addFault({
      kind: 'rate_limit',
      route: 'GET /v1/virtual-accounts/:id/balance',
      retryAfterSeconds: 1,
    });
    const answer = await balance();
    expect(answer.status).toBe(502);
    expect(answer.body.message).toMatch(/retry later/);
  });

  it('GET /payouts/preview with amount 0.00: 400 naming amount, and no partner call', async () => {
    const calls = (await sandbox.control.requestLog()).length;
    const answer = await http().get(
      `/payouts/preview?virtual_account_id=${account.virtualAccountId}&recipient_id=${account.recipientId}&amount=0.00`,
    );
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(/amount/);
    expect((await sandbox.control.requestLog()).length).toBe(calls);
  });

  it('POST /reconciliation/deposits/run while the partner answers 503: 502 retry later, no 500, no stack', async () => {
    const mark = logs.lines.length;
    await sandbox.control.addFault({
      kind: 'server_error',
      status: 503,
      route: 'GET /v1/virtual-accounts/deposits',
    });
    const answer = await http().post('/reconciliation/deposits/run');
    expect(answer.status).toBe(502);
    expect(answer.body.message).toMatch(/retry later/);
    expect(linesSince(mark)).not.toMatch(/ExceptionsHandler|\n\s+at /);
  });

  it('POST /reconciliation/deposits/run while /auth answers 401: 502 naming the configuration, logged as an error', async () => {
    const mark = logs.lines.length;
    await authFails(401);
    const answer = await http().post('/reconciliation/deposits/run');
    expect(answer.status).toBe(502);
    expect(answer.body.message).toMatch(/credentials or account/);
    expect(linesSince(mark)).toMatch(/credentials or account/);
    expect(linesSince(mark)).not.toMatch(/ExceptionsHandler|\n\s+at /);
  });
});

describe('the version pin while the token call fails (SQLite)', () => {
  it('an /auth 4xx is not the partner refusing the version: not remembered, the next run pins', async () => {
    const sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'pinauth');
    await sandbox.control.addFault({ kind: 'server_error', status: 404, route: 'POST /auth', times: 5 });
    const running = await startTestApp(db.url, { PARTNER_MAX_RETRIES: '0' }, sandbox);
    try {
      const atStart = await appRequest(running).get('/versioning').expect(200);
      expect(atStart.body).toMatchObject({ pinned: null, refusedTarget: null });
      await sandbox.control.clearFaults();
      const pin = await appRequest(running).post('/versioning/pin').expect(200);
      expect(pin.body).toMatchObject({ pinned: '2026-04-14', action: 'upgraded' });
    } finally {
      await running.close();
      await sandbox.close();
      db.cleanup();
    }
  });
});
