/**
 * A partner /auth outage during POST /payouts is "the partner is down, retry with
 * the same key" (502), never a 400 refusal that burns the key; the retry with the same key creates
 * the payout once. Our credentials refused is a 502 with a configuration message; the key stays
 * usable. On a SQLite file and on PostgreSQL. Each case is a row of the suite's counted table.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { PartnerPayoutRequestEntity } from '@partner-payments/typeorm';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PayoutsService } from '../../apps/reference-app/src/payouts/payouts.service';
import { appRequest, startTestApp, startTestSandbox } from '../setup/app.fixture';
import { createFundedAccount, type FundedAccount } from '../setup/funded-account.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.fixture';
import { recordTally } from './tally.fixture';

jest.setTimeout(60_000);

describe.each(DATABASE_KINDS)('partner /auth outage during POST /payouts on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;
  /** What each outage case observed, for the suite's counted table. */
  const seen: Array<{ right: boolean; created: number; known: boolean }> = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'authout');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    account = await createFundedAccount(running, `auth-${kind}`);
  });
  afterAll(async () => {
    recordTally({
      suite: '/auth down during POST /payouts',
      database: kind,
      inputsTried: seen.length,
      refusedRight: seen.filter((c) => c.right).length,
      wrong: seen.filter((c) => !c.right).length,
      payoutsRequested: seen.length,
      createdAtPartner: seen.reduce((n, c) => n + c.created, 0),
      knownToApp: seen.filter((c) => c.known).length,
      duplicate: seen.filter((c) => c.created > 1).length,
    });
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
      .get(PartnerUnitOfWork)
      .run((m) => m.findOneOrFail(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } }));
  const payoutsCreated = async () => (await sandbox.control.counters()).created.payouts ?? 0;

  it.each([
    ['503', { kind: 'server_error', status: 503 }],
    // The app authenticated at start: a 500 now is the partner failing, not an unknown client id (evidence §1).
    ['500', { kind: 'server_error', status: 500 }],
    ['a reset', { kind: 'reset' }],
    // Our credentials refused, and any other 4xx of the token call: the payout was never sent, so
    // it is the app's configuration (502), never the partner refusing the payout (which would burn
    // the key and tell the caller not to retry).
    ['401 (our credentials refused)', { kind: 'server_error', status: 401 }],
    ['404', { kind: 'server_error', status: 404 }],
    ['400', { kind: 'server_error', status: 400 }],
  ] as const)(
    '/auth answering %s: 502 retry-with-the-same-key, the key stays pending; the retry creates one payout',
    async (_label, fault) => {
      await sandbox.control.expireTokensNow();
      await sandbox.control.addFault({ ...fault, route: 'POST /auth', times: 20 });
      const key = randomUUID();
      const before = await payoutsCreated();
      const first = await post(key);
      const stateAfterOutage = (await requestRow(key)).state;
      const createdDuringOutage = (await payoutsCreated()) - before;
      await sandbox.control.clearFaults();
      const retried = await post(key);
      const replay = await post(key);
      const created = (await payoutsCreated()) - before;
      const known =
        retried.status === 201 && !!(await running.app.get(PayoutsService).find(retried.body.payout_id));
      seen.push({
        right:
          first.status === 502 &&
          /retry with the same Idempotency-Key/.test(first.body.message) &&
          stateAfterOutage === 'pending' &&
          replay.body.payout_id === retried.body.payout_id,
        created,
        known,
      });
      expect(first.status).toBe(502);
      expect(first.body.message).toMatch(/retry with the same Idempotency-Key/);
      expect(stateAfterOutage).toBe('pending');
      expect(createdDuringOutage).toBe(0); // nothing created: the call was refused 401, re-auth failed
      expect(retried.status).toBe(201);
      expect(replay.body.payout_id).toBe(retried.body.payout_id);
      expect(created).toBe(1);
      expect(known).toBe(true);
    },
  );
});
