/**
 * Group commit in the inbox: concurrent deliveries share one transaction (one commit,
 * one fsync), each is answered only once the transaction holding its row committed, duplicates
 * inside one batch and across batches still give one row and the right answer to each, and a
 * lone delivery does not wait for company. On SQLite and PostgreSQL, over a real socket.
 */
import type { InboxEventInput } from '@partner-payments/nestjs/inbox';
import { buildUserCreated, signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor, openTestDatabaseAt } from '../../setup/test-database.fixture';
import { failInboxInsertsOf, inboxRowCount, postBurst, storedEventIds } from './inbox-batch.fixture';
import { PartnerTypeOrmInboxStore } from '@partner-payments/typeorm';

jest.setTimeout(180_000);

describe.each(DATABASE_KINDS)('group commit in the inbox (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let url: string;
  let cleanup: () => void;
  /** The sizes of the batches the app's store was asked to record (its real recordBatch runs). */
  let batchSizes: number[];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ url, cleanup } = await databaseUrlFor(kind, 'groupcommit'));
    running = await startTestApp(url, {}, sandbox);
    const store = running.app.get(PartnerTypeOrmInboxStore);
    const recordBatch = store.recordBatch.bind(store);
    store.recordBatch = (events: readonly InboxEventInput[]) => {
      batchSizes.push(events.length);
      return recordBatch(events);
    };
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });
  beforeEach(() => {
    batchSizes = [];
  });

  const signed = (eventId: string) => {
    const body = JSON.stringify(
      buildUserCreated({ event_id: eventId, user_id: `u_${eventId}`, status: 'CREATED' }),
    );
    const headers = {
      'content-type': 'application/json',
      'x-signature-sha256': signPartnerWebhook(body, sandbox.webhookSecret),
    };
    return { body, headers };
  };
  const deliver = async (eventId: string): Promise<{ status: number; body: { status?: string } }> => {
    const res = await fetch(`${running.url}/webhooks/partner`, { method: 'POST', ...signed(eventId) });
    return { status: res.status, body: (await res.json()) as { status?: string } };
  };
  const burst = async (ids: string[]) =>
    (await postBurst(running.app.getHttpServer(), running.url, '/webhooks/partner', ids.map(signed))).map(
      (a, i) => ({
        id: ids[i],
        status: a.status,
        answer: (JSON.parse(a.body) as { status?: string }).status,
      }),
    );

  it('a burst with repeats inside and across batches: one row per event id, one "accepted" each, the rest duplicate', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `${kind}-burst-${i}`);
    // Each id three times in one burst (repeats within a batch), then the first half again while
    // the first burst is still being committed or after it (repeats across batches).
    const firstWave = burst([...ids, ...ids, ...ids]);
    const secondWave = burst(ids.slice(0, 30));
    const answers = [...(await firstWave), ...(await secondWave)];
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    for (const id of ids) {
      const mine = answers.filter((a) => a.id === id).map((a) => a.answer);
      expect([id, mine.filter((s) => s === 'accepted').length]).toEqual([id, 1]);
      expect(mine.filter((s) => s === 'duplicate')).toHaveLength(mine.length - 1);
    }
    const stored = await storedEventIds(url, `${kind}-burst-%`);
    expect(stored.sort()).toEqual([...ids].sort());
    // It was group commit: fewer transactions than deliveries, some holding many rows.
    expect(batchSizes.length).toBeLessThan(answers.length / 4);
    expect(Math.max(...batchSizes)).toBeGreaterThan(10);
  });

  it('answers each delivery only once its row is committed: another connection sees it at the answer', async () => {
    const db = await openTestDatabaseAt(url);
    try {
      const ids = Array.from({ length: 40 }, (_, i) => `${kind}-visible-${i}`);
      const seenAtAnswer = await Promise.all(
        ids.map(async (id) => {
          const answer = await deliver(id);
          expect(answer.status).toBe(200);
          return (await storedEventIds(db, id)).length; // read right after the 2xx
        }),
      );
      expect(seenAtAnswer).toEqual(ids.map(() => 1));
    } finally {
      await db.dataSource.destroy();
    }
  });

  it('answers 500 to every delivery of a batch whose transaction fails, stores none of them, and goes on', async () => {
    const db = await openTestDatabaseAt(url);
    try {
      const undo = await failInboxInsertsOf(db, `${kind}-poison`);
      const ids = [`${kind}-poison`, ...Array.from({ length: 30 }, (_, i) => `${kind}-mate-${i}`)];
      let answers: Array<{ id: string; status: number }>;
      try {
        answers = await burst(ids);
      } finally {
        await undo();
      }
      expect(answers.find((a) => a.id === `${kind}-poison`)?.status).toBe(500);
      // Its batch mates share its fate: none of them was acknowledged.
      expect(answers.filter((a) => a.status === 500).length).toBeGreaterThan(1);
      // Never acknowledged and lost: a 2xx has its row, a 5xx has none.
      const stored = new Set(await storedEventIds(db, `${kind}-%`));
      for (const a of answers)
        expect([a.id, a.status, stored.has(a.id)]).toEqual([a.id, a.status, a.status === 200]);
      expect(answers.filter((a) => a.status !== 200 && a.status !== 500)).toEqual([]);
      // The inbox goes on: the next delivery is stored and answered.
      expect((await deliver(`${kind}-after-poison`)).status).toBe(200);
      expect(await storedEventIds(db, `${kind}-after-poison`)).toHaveLength(1);
    } finally {
      await db.dataSource.destroy();
    }
  });

  it('answers a lone delivery in a batch of its own, without waiting for a fuller one', async () => {
    const before = await inboxRowCount(url);
    const answer = await deliver(`${kind}-lone`);
    expect(answer).toEqual({ status: 200, body: expect.objectContaining({ status: 'accepted' }) });
    expect(batchSizes).toEqual([1]);
    expect(await inboxRowCount(url)).toBe(before + 1);
  });
});
