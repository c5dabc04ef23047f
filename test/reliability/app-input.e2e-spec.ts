/**
 * Bad input on the app's own endpoints is refused with a clear 4xx before
 * any transformation or partner call (form bodies 415, unknown keys 400 naming them, deep nesting
 * 400 with no stack), and the partner timeout and retries are the app's configuration.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { appRequest, startTestApp, startTestSandbox } from '../setup/app.fixture';
import { createFundedAccount, partnerClientFor, type FundedAccount } from '../setup/funded-account.fixture';
import { databaseUrlFor } from '../setup/test-database.fixture';

jest.setTimeout(60_000);

describe('the app refuses bad input before any partner call (SQLite)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'input');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, { PARTNER_TIMEOUT_MS: '300', PARTNER_MAX_RETRIES: '0' }, sandbox);
    // Made with a client of the test's own: the app's 300 ms, no-retry client timed out creating the
    // fixtures on a loaded machine (a full run on 2 cores), which is not what this suite tests.
    account = await createFundedAccount(
      { client: partnerClientFor(sandbox), baseUrl: sandbox.baseUrl },
      'input',
    );
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const http = () => appRequest(running);
  const body = () => ({
    virtual_account_id: account.virtualAccountId,
    recipient_id: account.recipientId,
    amount: '5.00',
    currency: 'USD',
  });
  const payoutCalls = async () =>
    (await sandbox.control.requestLog()).filter((r) => r.route === 'POST /v1/virtual-accounts/:id/payout')
      .length;

  it('a form-urlencoded body is 415, even when every field is there', async () => {
    const before = await payoutCalls();
    const answer = await http()
      .post('/payouts')
      .set('Idempotency-Key', randomUUID())
      .type('form')
      .send(body());
    expect(answer.status).toBe(415);
    expect(answer.body.message).toContain('application/json');
    expect(await payoutCalls()).toBe(before);
  });

  it('unknown keys are 400 naming them', async () => {
    const answer = await http()
      .post('/payouts')
      .set('Idempotency-Key', randomUUID())
      .send({ ...body(), note: 'x', fee_override: '0' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(/note.*fee_override|fee_override.*note/);
  });

  it('a body nested 2000 deep (about 4 KB) is 400 naming the problem, not a 500', async () => {
    const deep = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;
    const answer = await http()
      .post('/payouts')
      .set('Idempotency-Key', randomUUID())
      .set('content-type', 'application/json')
      .send(deep);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('nested deeper than 32 levels');
  });

  it('PARTNER_TIMEOUT_MS and PARTNER_MAX_RETRIES bound a slow partner: one 300 ms attempt, then 502', async () => {
    await sandbox.control.addFault({
      kind: 'latency',
      route: 'POST /v1/virtual-accounts/:id/payout',
      latencyMs: 3000,
    });
    try {
      const before = await payoutCalls();
      const answer = await http().post('/payouts').set('Idempotency-Key', randomUUID()).send(body());
      expect(answer.status).toBe(502);
      expect(answer.body.message).toMatch(/timed out/);
      expect((await payoutCalls()) - before).toBe(1);
    } finally {
      await sandbox.control.clearFaults();
    }
  });
});
