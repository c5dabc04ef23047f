/**
 * webhook-ingest: signed deliveries, each with a new data.event_id, hammered at the reference
 * app's POST /webhooks/partner (guard -> parser -> TypeORM inbox on a SQLite file -> 200; handlers
 * run after the answer). Two phases on one app:
 *  - timed (10 s): requests/s and latency;
 *  - counted (a fixed number of deliveries, every answer awaited): its inbox rows must equal its
 *    2xx "accepted" answers exactly. A timed run cannot show that: autocannon drops the requests
 *    in flight when the time is up, which the app may still have stored.
 * Both are checked against webhook_inbox once the app has stopped (handlers drained, DB closed).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEFAULTS } from '@partner-payments/testing';
import { progress, trackChild } from './lib/child.registry';
import { captureEnvironment, hardDeadline, table, writeResults } from './lib/run.env';
import { startSandboxProcess } from './lib/sandbox.process';
import { queryAll } from './lib/sqlite.reader';
import { deliverSignedWebhooks, type LoadOutcome } from './lib/webhook.load';

const DURATION_S = Number(process.env.BENCH_INGEST_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_INGEST_CONNECTIONS ?? 10);
const COUNTED = Number(process.env.BENCH_INGEST_COUNTED ?? 3000);
const NAME = 'webhook-ingest';

function startAppProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = trackChild(
    fork(join(__dirname, 'webhook-ingest.app.ts'), [], {
      cwd: join(__dirname, '..'),
      execArgv: ['-r', 'ts-node/register/transpile-only'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('app did not start within 60 s')), 60_000);
    child.once('message', (m: { url?: string }) => {
      clearTimeout(timer);
      if (m.url) resolve({ child, url: m.url });
    });
    child.once('exit', (code) => reject(new Error(`app exited early (${code})`)));
  });
}

/** Resolves with how long the app took to close (draining handlers, closing the database). */
function stopAppProcess(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('app did not stop within 60 s')), 60_000);
    child.once('message', (m: { closedMs?: number }) => {
      clearTimeout(timer);
      child.once('exit', () => resolve(m.closedMs ?? -1));
    });
    child.send('stop');
  });
}

function account(phase: LoadOutcome, stored: Set<string>) {
  const r = phase.result;
  const rows = [...phase.sent].filter((id) => stored.has(id)).length;
  return {
    requestsPerS: {
      average: r.requests.average,
      stddev: r.requests.stddev,
      min: r.requests.min,
      max: r.requests.max,
    },
    latencyMs: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      max: r.latency.max,
      average: r.latency.average,
    },
    durationS: r.duration,
    responses: r.requests.total,
    responses2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    answers: phase.answers,
    accepted: phase.accepted.size,
    inboxRows: rows,
    acceptedButNotStored: [...phase.accepted].filter((id) => !stored.has(id)).length,
    /** Stored but with no "accepted" answer counted: requests in flight when a timed phase stopped. */
    storedWithoutCountedAnswer: rows - [...phase.accepted].filter((id) => stored.has(id)).length,
    inboxRowsEqualAccepted2xx: rows === phase.accepted.size && rows === r['2xx'],
  };
}

async function main(): Promise<void> {
  hardDeadline(DURATION_S * 1000 + 240_000, NAME);
  const environment = captureEnvironment();
  const dir = await mkdtemp(join(tmpdir(), 'bench-ingest-'));
  const dbFile = join(dir, 'ingest.sqlite');
  const sandbox = await startSandboxProcess();
  const secret = SANDBOX_DEFAULTS.webhookSecret; // the sandbox's fixed test secret, given to the app
  try {
    const { child, url } = await startAppProcess({
      DATABASE_URL: `sqlite:${dbFile}`,
      PARTNER_BASE_URL: sandbox.baseUrl,
      PARTNER_ENV: 'sandbox',
      PARTNER_API_KEY: SANDBOX_DEFAULTS.apiKey,
      PARTNER_CLIENT_ID: SANDBOX_DEFAULTS.clientId,
      PARTNER_PASSWORD: SANDBOX_DEFAULTS.password,
      PARTNER_CLIENT_UUID: SANDBOX_DEFAULTS.clientUuid,
      PARTNER_WEBHOOK_SECRET: secret,
      // Required with PARTNER_BASE_URL (issue 9 defect 3: inbox bodies are sealed at rest).
      INBOX_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    });
    const hook = `${url}/webhooks/partner`;
    progress(
      NAME,
      `app at ${url}; warm-up 200 deliveries, then ${DURATION_S} s x ${CONNECTIONS} connections`,
    );
    await deliverSignedWebhooks(hook, secret, { amount: 200, connections: CONNECTIONS }); // JIT, pools, SQLite pages
    const timed = await deliverSignedWebhooks(hook, secret, {
      durationS: DURATION_S,
      connections: CONNECTIONS,
    });
    progress(
      NAME,
      `timed phase: ${timed.result.requests.total} answers; counted phase: ${COUNTED} deliveries`,
    );
    const counted = await deliverSignedWebhooks(hook, secret, { amount: COUNTED, connections: CONNECTIONS });
    const closeMs = await stopAppProcess(child);
    progress(NAME, `app closed in ${closeMs} ms`);

    const stored = new Set(
      queryAll<{ event_id: string }>(dbFile, 'SELECT event_id FROM webhook_inbox').map((r) => r.event_id),
    );
    const byState = queryAll<{ state: string; n: number }>(
      dbFile,
      'SELECT state, COUNT(*) AS n FROM webhook_inbox GROUP BY state',
    );
    const results = {
      timed: account(timed, stored),
      counted: account(counted, stored),
      inboxRowsTotal: stored.size,
      inboxRowsByState: Object.fromEntries(byState.map((s) => [s.state, s.n])),
      appCloseMs: closeMs,
    };
    const row = (phase: string, a: ReturnType<typeof account>) => [
      phase,
      a.requestsPerS.average,
      a.latencyMs.p50,
      a.latencyMs.p99,
      a.latencyMs.max,
      a.responses2xx,
      a.non2xx,
      a.errors + a.timeouts,
      a.inboxRows,
      a.acceptedButNotStored,
      a.storedWithoutCountedAnswer,
    ];
    writeResults(
      {
        name: NAME,
        environment,
        parameters: {
          timedPhaseS: DURATION_S,
          countedPhaseDeliveries: COUNTED,
          warmUpDeliveries: 200,
          connections: CONNECTIONS,
          event: 'user.created, new data.event_id and user_id per delivery, signed with signPartnerWebhook',
          app: 'reference app (startApp) in its own process; SQLite file in a temp dir (WAL, synchronous=FULL)',
          partner: 'sandbox in its own process (idle during the run)',
        },
        results,
        notes: [
          "Requests/s and latency are autocannon's, measured from the benchmark process; app, sandbox and autocannon share the 2 cores.",
          'No lost webhook: every event_id answered 200 "accepted" is looked up in webhook_inbox after the app stopped (accepted not stored must be 0).',
          'counted: every answer is awaited, so its inbox rows must equal its 2xx exactly. timed: rows beyond the 2xx are requests in flight when autocannon stopped (stored by the app, answer dropped by autocannon).',
          `Inbox states after close: ${byState.map((s) => `${s.state} ${s.n}`).join(', ')}; the app took ${closeMs} ms to close (handlers still running after the last answer, then the database).`,
        ],
      },
      table(
        [
          'phase',
          'req/s (avg)',
          'p50 ms',
          'p99 ms',
          'max ms',
          '2xx',
          'non-2xx',
          'errors+timeouts',
          'inbox rows',
          'accepted not stored',
          'stored, answer not counted',
        ],
        [row(`timed ${DURATION_S} s`, results.timed), row(`counted ${COUNTED}`, results.counted)],
      ),
    );
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${NAME} failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
