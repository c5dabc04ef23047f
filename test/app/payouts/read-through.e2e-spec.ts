/**
 * The reference app's read-through endpoints: GET /payouts/preview against the
 * partner-strict sandbox (refused as the partner refuses it) and against an opt-in fee profile.
 */
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { appRequest, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount, type FundedAccount } from '../../setup/funded-account.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

describe.each([
  ['the partner-strict sandbox', {}],
  ['a sandbox with a fee profile (opt-in)', { payoutFees: { percent: 1, fixed: '1.00' } }],
] as const)('GET /payouts/preview against %s', (label, options) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;

  beforeAll(async () => {
    sandbox = await startTestSandbox(options);
    const db = await databaseUrlFor('sqlite', 'preview');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    account = await createFundedAccount(running, 'preview');
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const get = (query: string) => appRequest(running).get(`/payouts/preview?${query}`);

  it('reads the partner preview through, and names bad parameters with a 400', async () => {
    const query = `virtual_account_id=${account.virtualAccountId}&recipient_id=${account.recipientId}&amount=100.00`;
    const answer = await get(query);
    if (label === 'the partner-strict sandbox') {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'PartnerRefused' });
      expect(answer.body.message).toContain('Total fees exceed or equal the payout amount');
    } else {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        amount: '100.00',
        recipient_amount: '98.00',
        fees: { total: '2.00' },
      });
    }
    const bad = await get(`virtual_account_id=x&recipient_id=${account.recipientId}&amount=1.234&extra=1`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/virtual_account_id.*amount.*extra/);
    expect((await sandbox.control.counters()).created.payouts ?? 0).toBe(0);
  });
});
