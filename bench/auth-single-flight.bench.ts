/**
 * auth-single-flight: N concurrent calls through the client on a cold token cache must cost one
 * POST /auth (DESIGN: the google-auth-library lesson), and a token expiring mid-run must cost one
 * more, not one per caller. Counted by the sandbox itself (counters().authCalls), not the client.
 */
import type { PartnerHttpEvent } from '@partner-payments/nestjs';
import { captureEnvironment, hardDeadline, table, writeResults } from './lib/run.env';
import { sandboxClient } from './lib/partner.client';
import { startSandboxProcess, type SandboxProcess } from './lib/sandbox.process';

const CALLS = Number(process.env.BENCH_AUTH_CALLS ?? 1000);
const REPEATS = Number(process.env.BENCH_AUTH_REPEATS ?? 3);
/** In the expiry scenario, tokens are expired once this many calls have completed. */
const EXPIRE_AFTER = Math.floor(CALLS / 4);

interface RunResult {
  scenario: 'cold' | 'expired-mid-run';
  calls: number;
  succeeded: number;
  failed: number;
  authCalls: number;
  responses401: number;
  wallMs: number;
}

async function run(sandbox: SandboxProcess, scenario: RunResult['scenario']): Promise<RunResult> {
  let responses401 = 0;
  const onHttpEvent = (e: PartnerHttpEvent) => {
    if (e.type === 'response' && e.status === 401) responses401++;
  };
  // Limiter off: this measures the token cache, not the 20/s bucket (1000 calls would take 48 s).
  const client = sandboxClient(sandbox.baseUrl, { rateLimit: false, onHttpEvent });
  const before = (await sandbox.control.counters()).authCalls;
  let done = 0;
  let expiry: Promise<void> | null = null;
  const started = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: CALLS }, () =>
      client.clientConfig.get().finally(() => {
        done++;
        if (scenario === 'expired-mid-run' && done === EXPIRE_AFTER)
          expiry = sandbox.control.expireTokensNow();
      }),
    ),
  );
  const wallMs = performance.now() - started;
  await expiry;
  const authCalls = (await sandbox.control.counters()).authCalls - before;
  const failed = outcomes.filter((o) => o.status === 'rejected').length;
  return {
    scenario,
    calls: CALLS,
    succeeded: CALLS - failed,
    failed,
    authCalls,
    responses401,
    wallMs: Math.round(wallMs),
  };
}

async function main(): Promise<void> {
  hardDeadline(120_000, 'auth-single-flight');
  const environment = captureEnvironment();
  const sandbox = await startSandboxProcess();
  const runs: RunResult[] = [];
  try {
    for (let i = 0; i < REPEATS; i++) {
      runs.push(await run(sandbox, 'cold'));
      runs.push(await run(sandbox, 'expired-mid-run'));
    }
  } finally {
    await sandbox.close();
  }
  writeResults(
    {
      name: 'auth-single-flight',
      environment,
      parameters: {
        calls: CALLS,
        repeats: REPEATS,
        expireAfterCompleted: EXPIRE_AFTER,
        call: 'clientConfig.get() = GET /v1/clients/{uuid}',
        rateLimit: false,
        sandbox: 'separate process',
      },
      results: { runs },
      notes: [
        'Each run uses a new client (cold token cache); POST /auth is counted by the sandbox.',
        `expired-mid-run: control.expireTokensNow() once ${EXPIRE_AFTER} calls have completed; calls then sent with the old token get 401, re-authenticate once (shared) and re-send.`,
        'Expected: 1 POST /auth per cold run, 2 per expired-mid-run run, 0 failures.',
      ],
    },
    table(
      ['scenario', 'calls', 'ok', 'failed', 'POST /auth', '401s seen', 'wall ms'],
      runs.map((r) => [r.scenario, r.calls, r.succeeded, r.failed, r.authCalls, r.responses401, r.wallMs]),
    ),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`auth-single-flight failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
