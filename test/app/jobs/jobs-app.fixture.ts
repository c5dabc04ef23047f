/**
 * One reference app with its sandbox, database and funded account for a jobs suite (SQLite file or
 * PostgreSQL), started once per file, and the shortcuts its tests share. The app's inbox gives up
 * after 2 attempts (INBOX_MAX_ATTEMPTS), so the dead limit is reached in a test.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import type { DatabaseKind } from '../../../apps/reference-app/src/database/database-url.util';
import {
  PartnerUnitOfWork,
  PartnerTypeOrmInboxStore,
  PartnerWebhookInboxEntity,
} from '@partner-payments/typeorm';
import { appRequest, eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount, type FundedAccount } from '../../setup/funded-account.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

/** The environment every jobs app starts with (again after a restart). */
export const JOBS_ENV = { INBOX_MAX_ATTEMPTS: '2' };

export interface JobsApp {
  sandbox: PartnerSandbox;
  /** Reassigned by a test that restarts the app. */
  running: RunningApp;
  dbUrl: string;
  account: FundedAccount;
}

/** Registers the suite's beforeAll/afterAll; `prefix` names its database. */
export function useJobsApp(kind: DatabaseKind, prefix: string) {
  const jobs = {} as JobsApp;
  let cleanup: (() => void) | undefined;

  beforeAll(async () => {
    jobs.sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, prefix);
    jobs.dbUrl = db.url;
    cleanup = db.cleanup;
    jobs.running = await startTestApp(jobs.dbUrl, JOBS_ENV, jobs.sandbox);
    jobs.account = await createFundedAccount(jobs.running, `${prefix}-${kind}`);
  });
  afterAll(async () => {
    await jobs.running?.close();
    await jobs.sandbox?.close();
    cleanup?.();
  });

  const http = () => appRequest(jobs.running);
  const uow = () => jobs.running.app.get(PartnerUnitOfWork);
  const payout = (payoutId: string) =>
    uow().run((m) => m.findOneOrFail(PayoutEntity, { where: { payoutId } }));
  const upgradeCalls = async () =>
    (await jobs.sandbox.control.counters()).requests['POST /v1/versioning/upgrade'] ?? 0;
  const createPayout = async () =>
    (
      await http()
        .post('/payouts')
        .set('Idempotency-Key', randomUUID())
        .send({
          virtual_account_id: jobs.account.virtualAccountId,
          recipient_id: jobs.account.recipientId,
          amount: '42.00',
          currency: 'USD',
        })
        .expect(201)
    ).body.payout_id as string;

  /** The inbox entry whose body names `text` (a deposit id): bodies are sealed at rest, the store opens them. */
  const inboxEntryOf = async (text: string) => {
    const store = jobs.running.app.get(PartnerTypeOrmInboxStore);
    for (const row of await uow().run((m) => m.find(PartnerWebhookInboxEntity))) {
      const entry = await store.get(row.eventId);
      if (entry?.rawBody.includes(text)) return entry;
    }
    return undefined;
  };

  /** Waits for the entry of `text` to have failed once, then makes it due (its 30 s backoff skipped). */
  const failedEntryMadeDue = async (text: string) => {
    const failed = await eventually(
      async () => ((await inboxEntryOf(text))?.state === 'failed' ? inboxEntryOf(text) : undefined),
      5000,
      `failed inbox entry of ${text}`,
    );
    await uow().run((m) =>
      m.update(
        PartnerWebhookInboxEntity,
        { eventId: failed!.eventId },
        { nextAttemptAt: new Date(Date.now() - 1000) },
      ),
    );
    return failed!;
  };

  return { jobs, http, uow, payout, upgradeCalls, createPayout, inboxEntryOf, failedEntryMadeDue };
}

/**
 * A handler of deposit events that throws `ledger unavailable` while `broken` is true: the cause an
 * operator fixes before retrying dead entries. `off()` removes it.
 */
export function breakableDepositHandler(running: RunningApp) {
  const event = 'virtual_account.deposit_funds_received';
  const emitter = running.app.get(EventEmitter2);
  const state = { broken: true, off: () => void emitter.off(event, handler) };
  const handler = async () => {
    if (state.broken) throw new Error('ledger unavailable');
  };
  emitter.on(event, handler);
  return state;
}
