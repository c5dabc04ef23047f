/**
 * inbox-drain: the state a crash leaves behind (50,000 deliveries stored in the inbox, answered 2xx,
 * never processed) on a SQLite file, then the reference app started on it with its own default
 * configuration for the inbox (INBOX_REDELIVERY_CRON unset: whatever the app does at start and on
 * its schedule is what is measured). Rate = entries processed / seconds from the first entry
 * processed to the last one, or to the time limit when the backlog is not drained by then.
 * No baseline: the target is absolute (≥ 2,000 entries/s).
 */
import { randomUUID } from 'node:crypto';
import { buildUserCreated } from '@partner-payments/testing';
import {
  PartnerUnitOfWork,
  PartnerInboxKeyRing,
  parseInboxKeys,
  PartnerTypeOrmInboxStore,
} from '@partner-payments/typeorm';
import { appEnv, INBOX_KEYS, sqliteDatabase } from './lib/app-env.fixture';
import { emitReport, hardDeadline, median, progress, QUICK, round, withLoad } from './lib/contract.util';
import { startForkedServer } from './lib/forked-process.fixture';
import { openInboxReader } from './lib/inbox-reader.fixture';
import { startSandboxProcess, type SandboxProcess } from './lib/sandbox-process.fixture';

const NAME = 'inbox-drain';
const ENTRIES = QUICK ? 10_000 : 50_000;
const ROUNDS = QUICK ? 1 : 3;
/** From the app's fork to giving up (boot included): enough for 50,000 at 2,000/s with room. */
const LIMIT_MS = QUICK ? 30_000 : 90_000;

interface DrainRound {
  entriesPerS: number;
  processed: number;
  drained: boolean;
  /** From the fork to the last entry processed (boot included). */
  sinceForkMs: number;
}

/**
 * The stored, never processed rows a crash between the 2xx and processing leaves, written by the
 * app's own inbox store (event key, body sealed under the key the app is started with), in one
 * transaction.
 */
async function seed(url: string): Promise<void> {
  const reader = await openInboxReader(url); // migrates the fresh file
  try {
    const uow = new PartnerUnitOfWork(reader.dataSource);
    const store = new PartnerTypeOrmInboxStore(uow, new PartnerInboxKeyRing(parseInboxKeys(INBOX_KEYS)));
    const receivedAt = new Date(Date.now() - 60_000);
    await uow.transaction(async () => {
      for (let done = 0; done < ENTRIES; done++) {
        const eventId = randomUUID();
        const body = buildUserCreated({ event_id: eventId, user_id: randomUUID(), status: 'CREATED' });
        await store.record({
          eventId,
          name: 'user.created',
          envelope: 'flat',
          rawBody: JSON.stringify(body),
          receivedAt,
        });
      }
    });
  } finally {
    await reader.close();
  }
}

async function drainOnce(sandbox: SandboxProcess): Promise<DrainRound> {
  const db = await sqliteDatabase('bench-drain');
  try {
    await seed(db.url);
    progress(NAME, `${ENTRIES} unprocessed entries stored; starting the app on them`);
    const env: Record<string, string> = appEnv(db.url, sandbox.baseUrl);
    delete env.INBOX_REDELIVERY_CRON; // the app's own default schedule
    const forkedAt = Date.now();
    const app = await startForkedServer(`${__dirname}/app-server.fixture.ts`, env, [], LIMIT_MS);
    const reader = await openInboxReader(db.url);
    let left = ENTRIES;
    while (Date.now() - forkedAt < LIMIT_MS && (left = await reader.unprocessed()) > 0)
      await new Promise((r) => setTimeout(r, 250));
    const stoppedAt = Date.now();
    await app.stop();
    const times = (await reader.rows())
      .map((r) => r.processedAt)
      .filter((t): t is number => t !== null)
      .sort((a, b) => a - b);
    await reader.close();
    const drained = left === 0 && times.length === ENTRIES;
    const first = times[0] ?? stoppedAt;
    const last = drained ? times[times.length - 1] : stoppedAt;
    return {
      entriesPerS: times.length / Math.max(0.001, (last - first) / 1000),
      processed: times.length,
      drained,
      sinceForkMs: (times[times.length - 1] ?? stoppedAt) - forkedAt,
    };
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  hardDeadline(ROUNDS * (LIMIT_MS + 120_000), NAME);
  const sandbox = await startSandboxProcess();
  try {
    const runs = await withLoad(async () => {
      const out: DrainRound[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const r = await drainOnce(sandbox);
        progress(NAME, `round ${i + 1}/${ROUNDS}: ${r.processed} processed, ${Math.round(r.entriesPerS)}/s`);
        out.push(r);
      }
      return out;
    });
    const rate = median(runs.value.map((r) => r.entriesPerS));
    emitReport({
      bench: NAME,
      figures: [
        {
          figure: `backlog drain after a crash (${ENTRIES.toLocaleString('en')} stored, unprocessed)`,
          unit: 'entries/s',
          ours: Math.round(rate),
          baseline: null,
          ratio: null,
          target: '≥ 2,000 entries/s on SQLite',
          pass: rate >= 2000 && runs.value.every((r) => r.drained),
          rounds: ROUNDS,
          notes:
            `per round: ${runs.value.map((r) => `${r.processed} processed${r.drained ? '' : ` (not drained in ${LIMIT_MS / 1000} s)`}, last ${round(r.sinceForkMs / 1000, 1)} s after the fork`).join('; ')}; ` +
            `app defaults for the inbox (INBOX_REDELIVERY_CRON unset), SQLite file, WAL, synchronous=FULL; ${runs.load}`,
        },
      ],
    });
  } finally {
    await sandbox.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${NAME} failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
