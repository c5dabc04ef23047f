/**
 * Issue 9 defect 2: a partner /auth outage during POST /payouts is "the partner is down, retry with
 * the same key" (502), never a 400 refusal that burns the key; the retry with the same key creates
 * the payout once. Our credentials refused is a 502 with a configuration message; the key stays
 * usable. On a SQLite file and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app.bootstrap';
import { PayoutRequestEntity } from '../../apps/reference-app/src/database/entities';
import { UnitOfWork } from '../../apps/reference-app/src/database/unit-of-work.service';
import { appRequest, startTestApp, startTestSandbox } from '../setup/app.helper';
import { createFundedAccount, type FundedAccount } from '../setup/partner-fixtures.helper';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.helper';

jest.setTimeout(60_000);

describe.each(DATABASE_KINDS)('partner /auth outage during POST /payouts on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'authout');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    account = await createFundedAccount(running, `auth-${kind}`);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const post = (key: string) =>
    appRequest(running).post('/payouts').set('Idempotency-Key', key).send({
      virtual_account_id: account.virtualAccountId,
      recipient_id: account.recipientId,
      amount: '12.00',
      currency: 'USD',
    });
  const requestRow = (key: string) =>
    running.app
      .get(UnitOfWork)
      .run((m) => m.findOneOrFail(PayoutRequestEntity, { where: { idempotencyKey: key } }));
  const payoutsCreated = async () => (await sandbox.control.counters()).created.payouts ?? 0;

  it.each([
    ['503', { kind: 'server_error', status: 503 }],
    ['500', { kind: 'server_error', status: 500 }],
    ['a reset', { kind: 'reset' }],
  ] as const)(
    '/auth answering %s: 502 retry-with-the-same-key, the key stays pending; the retry creates one payout',
    async (_label, fault) => {
      await sandbox.control.expireTokensNow();
      await sandbox.control.addFault({ ...fault, route: 'POST /auth', times: 20 });
      const key = randomUUID();
      const before = await payoutsCreated();
      const first = await post(key);
      expect(first.status).toBe(502);
      expect(first.body.message).toMatch(/retry with the same Idempotency-Key/);
      expect((await requestRow(key)).state).toBe('pending');
      expect(await payoutsCreated()).toBe(before); // nothing created: the call was refused 401, re-auth failed
      await sandbox.control.clearFaults();
      const retried = await post(key);
      expect(retried.status).toBe(201);
      const replay = await post(key);
      expect(replay.body.payout_id).toBe(retried.body.payout_id);
      expect(await payoutsCreated()).toBe(before + 1);
    },
  );
});
