/**
 * A user's own app, made durable by following libs/partner-payments-typeorm/README.md alone: a
 * CommonJS Nest app with its own DataSource and its own entities, the packed tarballs installed as
 * the README's install block says, its files written as the README shows them, built with its own
 * tsc and run as its own process against the sandbox, on a SQLite file and on PostgreSQL.
 * - SIGKILL in the middle of a burst of signed deliveries: every delivery answered 2xx is stored
 *   and processed once after the restart (its ledger row written, its inbox entry processed by one
 *   committed attempt); the partner never re-sends (spec 6.1.4).
 * - SIGKILL while the partner holds a payout's answer: after the restart the README's re-drive job
 *   sends the stored key and body again, the partner replays the payout, and the app stores it:
 *   0 payouts at the partner unknown to the app, 0 duplicates; the caller's retry gets that payout.
 * KEEP_CONSUMER_APP=1 keeps the folder for a look afterwards.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  buildDepositFundsReceived,
  buildDepositSource,
  startPartnerSandbox,
  type PartnerSandbox,
} from '@partner-payments/testing';
import { inboxEventKey } from '@partner-payments/typeorm';
import { DataSource } from 'typeorm';
import { createFundedAccount, partnerClientFor } from '../setup/funded-account.fixture';
import { sendSignedBurst } from '../setup/signed-burst.fixture';
import { createDatabase } from '../../scripts/pg-throwaway';
import { scaffoldCommonJsNestApp, scratchApp } from './scratch-apps.fixture';
import {
  ConsumerProcess,
  followTypeOrmReadme,
  freePort,
  throwawayDatabase,
  TYPEORM_README,
} from './durable-consumer.fixture';
import { files, step } from './consumer-app.fixture';
import { readBlocks } from './readme-blocks.fixture';

jest.setTimeout(120_000);

const BURST = 240;
const IN_FLIGHT = 24;
const KILL_AFTER_ACKS = 100;
const SEALING_KEYS = `test1:${Buffer.alloc(32, 9).toString('base64')}`;
const PAYOUT_ROUTE = 'POST /v1/virtual-accounts/:id/payout';

async function eventually<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A connection of the test's own to the app's database, to read what the app stored. */
async function observer(url: string): Promise<DataSource> {
  const ds = url.startsWith('postgres')
    ? new DataSource({ type: 'postgres', url })
    : new DataSource({ type: 'better-sqlite3', database: url.replace(/^sqlite:/, '') });
  return ds.initialize();
}

let app = '';
let pgBase = '';
let stopPg: (() => Promise<void>) | undefined;

describe('a consumer app following only the @partner-payments/typeorm README (tarballs, its own DataSource)', () => {
  const { tarballs, makeFolder } = scratchApp('durable-consumer-');
  beforeAll(async () => {
    app = makeFolder();
    scaffoldCommonJsNestApp(app);
    followTypeOrmReadme(app, tarballs);
    const pg = await throwawayDatabase();
    pgBase = pg.url;
    stopPg = () => pg.server.stop();
  }, 900_000);
  afterAll(async () => stopPg?.());

  it('the README gives the install step and the files this test builds the app from', () => {
    const blocks = readBlocks(TYPEORM_README);
    expect(step(blocks, 'install').code).toMatch(/partner-payments-typeorm-0\.1\.0\.tgz/);
    expect(files(blocks).map((f) => f.path)).toEqual(
      expect.arrayContaining(['src/app.module.ts', 'src/main.ts', 'src/payouts.controller.ts']),
    );
  });

  describe.each(['sqlite', 'postgres'] as const)('on %s', (kind) => {
    let sandbox: PartnerSandbox;
    let consumer: ConsumerProcess;
    let databaseUrl = '';

    beforeAll(async () => {
      sandbox = await startPartnerSandbox({
        quiet: true,
        authorizedBanks: ['bank_a'],
        verificationDelayMs: 0,
      });
      databaseUrl =
        kind === 'postgres'
          ? await createDatabase(pgBase, `durable_${randomUUID().slice(0, 8)}`)
          : `sqlite:${join(app, `durable-${randomUUID().slice(0, 8)}.sqlite`)}`;
      consumer = new ConsumerProcess(app, await freePort(), {
        DATABASE_URL: databaseUrl,
        INBOX_SEALING_KEYS: SEALING_KEYS,
        // The shortest grace the package accepts for these partner calls, (3 x 0 + 4) x 5 s, so
        // the re-drive (every 15 s) resends within the wait below; the stalled payout's process is
        // killed as soon as the partner created it, well inside its 5 s timeout.
        PAYOUT_REDRIVE_GRACE_MS: '20000',
        PARTNER_TIMEOUT_MS: '5000',
        PARTNER_MAX_RETRIES: '0',
        PARTNER_BASE_URL: sandbox.baseUrl,
        PARTNER_API_KEY: sandbox.credentials.apiKey,
        PARTNER_CLIENT_ID: sandbox.credentials.clientId,
        PARTNER_PASSWORD: sandbox.credentials.password,
        PARTNER_WEBHOOK_SECRET: sandbox.webhookSecret,
      });
      await consumer.start();
    }, 120_000);
    afterAll(async () => {
      await consumer?.stop();
      await sandbox?.close();
    });

    it('SIGKILL mid-burst of signed deliveries: every acknowledged one is stored and processed once', async () => {
      const events = Array.from({ length: BURST }, (_, i) => {
        const eventId = randomUUID();
        const body = JSON.stringify(
          buildDepositFundsReceived({
            event_id: eventId,
            user_id: randomUUID(),
            virtual_account_id: randomUUID(),
            deposit_id: randomUUID(),
            amount: `${i + 1}.00`,
            currency: 'USD',
            source: buildDepositSource('WIRE'),
          }),
        );
        return { eventId, body };
      });
      let killing: Promise<void> | null = null;
      const acked = await sendSignedBurst({
        url: `${consumer.url}/webhooks/partner`,
        secret: sandbox.webhookSecret,
        events,
        inFlight: IN_FLIGHT,
        afterEach: (n) => {
          if (!killing && n >= KILL_AFTER_ACKS) killing = consumer.kill();
        },
      });
      await killing;
      expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
      expect(acked.size).toBeLessThan(BURST);

      await consumer.start();
      const db = await observer(databaseUrl);
      try {
        await eventually(
          async () => {
            const [{ n }] = await db.query(
              "SELECT COUNT(*) AS n FROM webhook_inbox WHERE state <> 'processed'",
            );
            return Number(n) === 0 ? true : undefined;
          },
          60_000,
          'the restarted app to process what the kill left pending',
        );
        const inbox: Array<{ event_key: string; state: string; attempts: number }> = await db.query(
          'SELECT event_key, state, attempts FROM webhook_inbox',
        );
        const ledger: Array<{ event_id: string }> = await db.query('SELECT event_id FROM received_deposits');
        const byKey = new Map(inbox.map((r) => [r.event_key, r]));
        const written = new Set(ledger.map((r) => r.event_id));
        const lost = [...acked].filter((id) => {
          const row = byKey.get(inboxEventKey(id));
          return !row || row.state !== 'processed' || Number(row.attempts) !== 1 || !written.has(id);
        });
        expect({ acknowledged: acked.size, lost }).toEqual({ acknowledged: acked.size, lost: [] });
        // Stored without an answer (killed between the commit and the 2xx) is allowed, and such an
        // entry is processed too: every ledger row belongs to a stored entry, once.
        expect(ledger.length).toBe(inbox.length);
      } finally {
        await db.destroy();
      }
    });

    it('SIGKILL while the partner holds a payout answer: after the re-drive 0 unknown, 0 duplicates', async () => {
      const client = partnerClientFor(sandbox);
      const account = await createFundedAccount({ client, baseUrl: sandbox.baseUrl }, `durable-${kind}`);
      const body = (amount: string) => ({
        virtual_account_id: account.virtualAccountId,
        recipient_id: account.recipientId,
        amount,
        currency: 'USD',
      });
      const post = (key: string, amount: string) =>
        fetch(`${consumer.url}/payouts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body(amount)),
          signal: AbortSignal.timeout(30_000),
        });
      for (const amount of ['20.00', '21.00']) expect((await post(randomUUID(), amount)).status).toBe(201);
      // Malformed input is a 400 naming each field, nothing stored; a partner refusal a 422 that does
      // not pass on the partner's own status and text.
      const malformed = await post('order-1', '20.001');
      expect(malformed.status).toBe(400);
      expect(
        ((await malformed.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field),
      ).toEqual(['idempotencyKey', 'amount']);
      const refused = await fetch(`${consumer.url}/payouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ ...body('22.00'), recipient_id: randomUUID() }),
        signal: AbortSignal.timeout(30_000),
      });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({ message: 'the partner refused this payout' });
      const partnerPayouts = async () => {
        const ids: string[] = [];
        for await (const p of client.payouts.iterate({ user_id: account.userId, limit: 100 }))
          ids.push(p.payoutId);
        return ids;
      };

      await sandbox.control.addFault({ kind: 'accepted_then_stall', route: PAYOUT_ROUTE, latencyMs: 30_000 });
      const createdBefore = (await sandbox.control.counters()).created.payouts;
      const key = randomUUID();
      const caller = post(key, '31.00').then(
        () => 'answered',
        () => 'no answer',
      );
      await eventually(
        async () => ((await sandbox.control.counters()).created.payouts > createdBefore ? true : undefined),
        15_000,
        'the partner to create the payout',
      );
      await consumer.kill();
      expect(await caller).toBe('no answer');
      await sandbox.control.clearFaults();

      const db = await observer(databaseUrl);
      try {
        const known = async () =>
          new Set(
            ((await db.query('SELECT payout_id FROM payouts')) as Array<{ payout_id: string }>).map(
              (r) => r.payout_id,
            ),
          );
        const atPartner = await partnerPayouts();
        expect(atPartner).toHaveLength(3);
        expect((await known()).size).toBe(2); // the crash really lost one

        await consumer.start();
        await eventually(
          async () => {
            const here = await known();
            return atPartner.every((id) => here.has(id)) ? true : undefined;
          },
          60_000,
          'the re-drive job to store the payout the crash lost',
        );
        const final = await partnerPayouts();
        const here = await known();
        expect({ unknown: final.filter((id) => !here.has(id)), duplicates: final.length - 3 }).toEqual({
          unknown: [],
          duplicates: 0,
        });
        const retry = await post(key, '31.00');
        expect(retry.status).toBe(201);
        const { payout_id } = (await retry.json()) as { payout_id: string };
        expect(atPartner).toContain(payout_id);
        expect(await partnerPayouts()).toHaveLength(3);
      } finally {
        await db.destroy();
      }
    });
  });
});
