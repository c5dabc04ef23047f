/**
 * The secrets scan (part of the counted reliability suite): after a full flow at the
 * most verbose log level (a user, a virtual account created with its full account number as the
 * real partner sends it and funded by an ACH deposit with a sender account number, a recipient, a
 * payout to completion, a token expiry, a bad signature, every job endpoint; PARTNER_CLIENT_UUID
 * unset, so the version pin is keyed on the client id), no full account
 * number, api key, client id, password, bearer token, webhook secret, inbox encryption key,
 * operator token or app api key is in
 * any table's any column, in the SQLite file and its WAL as bytes, in the logs or process output,
 * or in any HTTP answer of the app (GET /metrics included: no secret in a label). On SQLite and PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  PartnerRecipientsService,
  PartnerUsersService,
  PartnerVirtualAccountsService,
} from '@partner-payments/nestjs';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import { PartnerTokenManager } from '../../libs/partner-payments/src/auth/token-manager.service';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { DepositEntity, VirtualAccountEntity } from '../../apps/reference-app/src/app-entities.constants';
import {
  PartnerTypeOrmInboxStore,
  PartnerUnitOfWork,
  PartnerVersionPinEntity,
} from '@partner-payments/typeorm';
import {
  appRequest,
  CapturingLogger,
  eventually,
  startTestApp,
  startTestSandbox,
  TEST_API_KEY,
  TEST_OPERATOR_TOKEN,
} from '../setup/app.fixture';
import { individual, usAddress, wireAccount } from '../setup/partner-inputs.fixture';
import { DATABASE_KINDS, databaseUrlFor, openTestDatabaseAt } from '../setup/test-database.fixture';
import {
  captureProcessOutput,
  findSecrets,
  sqliteFiles,
  tableDumps,
  type Finding,
  type Needle,
} from './secrets-scan.fixture';
import { recordTally } from './tally.fixture';

jest.setTimeout(120_000);

const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');

describe.each(DATABASE_KINDS)('secrets scan after a full flow (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => sandbox?.close());

  it('finds no secret and no full account number in the database, the logs or the answers', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'secrets');
    const inboxKey = randomBytes(32);
    const logger = new CapturingLogger();
    const output = captureProcessOutput();
    const answers: string[] = [];
    const achSender = `9${digits(11)}`;
    const recipientNumber = `8${digits(11)}`;
    let running: RunningApp | null = null;
    const needles: Needle[] = [];
    try {
      running = await startTestApp(
        url,
        {
          LOG_LEVEL: 'verbose',
          INBOX_ENCRYPTION_KEYS: `scan:${inboxKey.toString('base64')}`,
          // Without the UUID the version pin is keyed on the client id: the scan must see it stored.
          PARTNER_CLIENT_UUID: undefined,
        },
        sandbox,
        { logger },
      );
      const app = running.app;
      const call = async (
        method: 'get' | 'post',
        path: string,
        body?: object,
        headers: Record<string, string> = {},
      ) => {
        const answer = await appRequest(running!)[method](path).set(headers).send(body);
        answers.push(
          JSON.stringify({ path, status: answer.status, headers: answer.headers, body: answer.text }),
        );
        return answer;
      };
      const control = sandbox.control;

      const user = await app
        .get(PartnerUsersService)
        .create(individual({ email: `scan.${kind}@example.com` }));
      await control.setUserVerificationOutcome(user.userId, 'approved');
      const vas = app.get(PartnerVirtualAccountsService);
      const va = await vas.create({ user_id: user.userId, type: 'US_BANK', bank: 'bank_a' });
      const vaId = String(va.virtual_account_id ?? va.id);
      await control.provisionVirtualAccount(vaId);
      const vaNumber = String((await vas.get(vaId)).account_number);
      // The real partner's virtual_account.created carries the full account number.
      await control.emitEvent('virtual_account.created', {
        virtual_account_id: vaId,
        user_id: user.userId,
        status: 'active',
        account_number: vaNumber,
        routing_number: '021000021',
        metadata: {},
      });
      const { depositId } = await control.simulateDeposit(vaId, {
        rail: 'ACH',
        amount: '5000.00',
        source: { sender_account_number: achSender },
      });
      const recipient = await app.get(PartnerRecipientsService).create({
        user_id: user.userId,
        type: 'individual',
        first_name: 'Sec',
        last_name: 'Scan',
        email: `rcp.${kind}@example.com`,
        address: usAddress(),
        account: wireAccount(recipientNumber),
      });
      const tokens = app.get(PartnerTokenManager);
      const firstToken = await tokens.getToken();
      await control.expireTokensNow();
      await call('get', `/virtual-accounts/${vaId}/balance`); // re-authenticates
      const secondToken = await tokens.getToken();

      const created = await call(
        'post',
        '/payouts',
        { virtual_account_id: vaId, recipient_id: recipient.recipient_id, amount: '125.00', currency: 'USD' },
        { 'idempotency-key': randomUUID() },
      );
      expect(created.status).toBe(201);
      await control.advancePayout(created.body.payout_id, ['PENDING', 'PROCESSING', 'COMPLETED']);
      const bad = JSON.stringify({
        event: 'user.updated',
        data: { event_id: randomUUID(), user_id: user.userId },
      });
      await call('post', '/webhooks/partner', JSON.parse(bad) as object, {
        'x-signature-sha256': signPartnerWebhook(bad, 'whsec_not_ours'),
      });
      await control.flushWebhooks();
      await app.get(PartnerWebhookProcessingService).drain();
      for (const [method, path] of [
        ['get', `/payouts/${created.body.payout_id}`],
        ['get', '/health/live'],
        ['get', '/health/ready'],
        // Metric labels are scanned with the answers.
        ['get', '/metrics'],
        ['get', '/inbox'],
        ['post', '/inbox/redeliver'],
        ['post', '/inbox/prune'],
        ['post', '/reconciliation/run'],
        ['post', '/reconciliation/deposits/run'],
        ['get', '/versioning'],
      ] as const) {
        await call(method, path);
      }
      // The flow really happened: the projections hold what the events carried, masked.
      const uow = app.get(PartnerUnitOfWork);
      const account = await eventually(
        () =>
          uow
            .run((m) => m.findOneBy(VirtualAccountEntity, { virtualAccountId: vaId }))
            .then((r) => r ?? undefined),
        5000,
        'virtual account projection',
      );
      expect(account.accountNumberLast4).toBe(vaNumber.slice(-4));
      expect(await uow.run((m) => m.countBy(DepositEntity, { depositId }))).toBe(1);
      expect((await app.get(PartnerTypeOrmInboxStore).countByState()).processed).toBeGreaterThanOrEqual(8);
      expect(await uow.run((m) => m.count(PartnerVersionPinEntity))).toBe(1);

      const credentials = sandbox.credentials;
      needles.push(
        { name: 'partner api key', value: credentials.apiKey },
        { name: 'operator token', value: TEST_OPERATOR_TOKEN },
        { name: 'app api key', value: TEST_API_KEY },
        { name: 'partner client id', value: credentials.clientId },
        { name: 'partner password', value: credentials.password },
        { name: 'bearer token', value: firstToken },
        { name: 'bearer token after re-authentication', value: secondToken },
        { name: 'webhook secret', value: sandbox.webhookSecret },
        { name: 'inbox encryption key (base64)', value: inboxKey.toString('base64') },
        { name: 'inbox encryption key (hex)', value: inboxKey.toString('hex') },
        { name: 'full account number: virtual account', value: vaNumber },
        { name: 'full account number: ACH sender', value: achSender },
        { name: 'full account number: recipient', value: recipientNumber },
      );
      expect(firstToken).not.toBe(secondToken);
      // The scanner finds what is there: the partner's own deliveries carry two of the numbers.
      const sent = findSecrets(needles, [
        { where: 'deliveries', text: JSON.stringify(await control.deliveries()) },
      ]);
      expect(sent.map((f) => f.secret).sort()).toEqual([
        'full account number: ACH sender',
        'full account number: virtual account',
      ]);
    } finally {
      await running?.close();
      output.stop();
    }

    const db = await openTestDatabaseAt(url);
    const tables = await tableDumps(db.dataSource, kind);
    await db.dataSource.destroy();
    const files = kind === 'sqlite' ? sqliteFiles(url.replace(/^sqlite:/, '')) : [];
    const findings: Finding[] = findSecrets(needles, [
      ...tables,
      ...files,
      { where: 'logs (every level)', text: logger.lines.join('\n') },
      { where: 'process output', text: output.text() },
      { where: 'HTTP answers', text: answers.join('\n') },
    ]);
    recordTally({ suite: 'secrets scan', database: kind, leaked: findings.length });
    cleanup();
    // The logs were captured at the most verbose level: the debug-only lines are there.
    expect(logger.lines.filter((l) => l.includes('Partner token obtained')).length).toBeGreaterThanOrEqual(2);
    expect(logger.lines.some((l) => /^POST \/v1\/\S*payout\S* → 20\d /.test(l))).toBe(true);
    expect(files.length > 0).toBe(kind === 'sqlite');
    expect(findings).toEqual([]);
  });
});
