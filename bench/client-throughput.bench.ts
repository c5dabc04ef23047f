/**
 * client-throughput: GET /v1/payouts/{id} through the client for a fixed time with many callers,
 * with the client's rate limiter at its default (20/s, burst 50) and off. The point is that the
 * default never exceeds the partner's limit (provider-facts: 20/s burst 50, 429 above), so the
 * sandbox enforcing that limit answers no 429; with the limiter off the same load is refused.
 */
import type { PartnerHttpEvent, PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';
import { captureEnvironment, hardDeadline, sleep, table, writeResults } from './lib/run.env';
import { sandboxClient } from './lib/partner.client';
import { createPayout } from './lib/payout.fixture';
import { startSandboxProcess } from './lib/sandbox.process';

const DURATION_MS = Number(process.env.BENCH_THROUGHPUT_MS ?? 10_000);
const CALLERS = Number(process.env.BENCH_THROUGHPUT_CALLERS ?? 50);

interface Mode {
  name: string;
  clientLimiter: 'default (20/s burst 50)' | 'off';
  sandboxLimit: boolean;
  options: Partial<PartnerPaymentsModuleOptions>;
}

const MODES: Mode[] = [
  {
    name: 'limiter default, partner limit on',
    clientLimiter: 'default (20/s burst 50)',
    sandboxLimit: true,
    options: {},
  },
  // maxRetries 0: every refusal is visible as a failed call instead of being retried after Retry-After.
  {
    name: 'limiter off, partner limit on',
    clientLimiter: 'off',
    sandboxLimit: true,
    options: { rateLimit: false, maxRetries: 0 },
  },
  {
    name: 'limiter off, partner limit off',
    clientLimiter: 'off',
    sandboxLimit: false,
    options: { rateLimit: false },
  },
];

/** Most attempts sent within any 1000 ms window (sorted timestamps, two pointers). */
function maxPerSecond(times: number[]): number {
  let best = 0;
  for (let lo = 0, hi = 0; hi < times.length; hi++) {
    while (times[hi] - times[lo] >= 1000) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

async function runMode(mode: Mode) {
  // A fresh sandbox per mode: the partner's bucket starts full, as the client's does.
  const sandbox = await startSandboxProcess(mode.sandboxLimit ? ['--rate-limit'] : []);
  try {
    const payoutId = await createPayout(
      sandboxClient(sandbox.baseUrl, { rateLimit: false }),
      sandbox.baseUrl,
    );
    await sleep(3000); // let the partner's bucket refill after the setup calls (50 / 20 per s = 2.5 s)
    const sent: number[] = [];
    let responses429 = 0;
    let first429: number | null = null;
    const onHttpEvent = (e: PartnerHttpEvent) => {
      if (e.type === 'response' && e.status === 429 && first429 === null) first429 = performance.now();
      if (e.type === 'request' && e.path.includes('/v1/payouts/')) sent.push(performance.now());
      if (e.type === 'response' && e.status === 429) responses429++;
    };
    const client = sandboxClient(sandbox.baseUrl, { ...mode.options, onHttpEvent });
    await client.auth.getToken(); // authenticate outside the measured window
    let ok = 0;
    let failed = 0;
    const start = performance.now();
    const end = start + DURATION_MS;
    const caller = async () => {
      while (performance.now() < end) {
        try {
          await client.payouts.get(payoutId);
          ok++;
        } catch {
          failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: CALLERS }, caller));
    const elapsedS = (performance.now() - start) / 1000;
    const steady = sent.filter((t) => t - start >= 3000 && t < end); // after the burst is spent
    const steadyS = Math.max(0.001, (DURATION_MS - 3000) / 1000);
    return {
      mode: mode.name,
      clientLimiter: mode.clientLimiter,
      sandboxRateLimit: mode.sandboxLimit ? '20/s burst 50' : 'off',
      okCalls: ok,
      failedCalls: failed,
      attemptsSent: sent.length,
      responses429,
      first429AtMs: first429 === null ? null : Math.round(first429 - start),
      elapsedS: Math.round(elapsedS * 100) / 100,
      okCallsPerS: Math.round((ok / elapsedS) * 10) / 10,
      steadyAttemptsPerS: Math.round((steady.length / steadyS) * 10) / 10,
      maxAttemptsIn1s: maxPerSecond(sent),
    };
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  hardDeadline(30_000 + MODES.length * (DURATION_MS + 25_000), 'client-throughput');
  const environment = captureEnvironment();
  const runs = [];
  for (const mode of MODES) runs.push(await runMode(mode));
  writeResults(
    {
      name: 'client-throughput',
      environment,
      parameters: {
        durationMs: DURATION_MS,
        concurrentCallers: CALLERS,
        call: 'payouts.get(id) = GET /v1/payouts/{id}',
        sandbox: 'separate process, one per mode',
        steadyWindow: 'from 3 s after start to the end',
      },
      results: { runs },
      notes: [
        "Attempts are counted from the client's own request events (retries included); 429s from its response events.",
        'Expected with the default limiter: at most ~70 attempts in any 1 s (burst 50 + 20/s refill) and ~20/s steady, against a partner enforcing 20/s burst 50.',
        'limiter off, partner limit on runs with maxRetries 0 so each refusal is a failed call.',
        "One 429 per run near the end of the first burst is usual: the default limiter equals the partner's limit with no margin, so arrival jitter (likely the burst's first requests waiting for new connections) leaves the partner's bucket a fraction of a token behind the client's. The client retries it after Retry-After (no failed call). It also happens with the token fetched before the window, so POST /auth is not the cause.",
      ],
    },
    table(
      [
        'mode',
        'ok calls',
        'failed',
        'ok calls/s',
        'steady attempts/s',
        'max attempts in 1 s',
        '429s',
        'first 429 at ms',
      ],
      runs.map((r) => [
        r.mode,
        r.okCalls,
        r.failedCalls,
        r.okCallsPerS,
        r.steadyAttemptsPerS,
        r.maxAttemptsIn1s,
        r.responses429,
        r.first429AtMs ?? '-',
      ]),
    ),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`client-throughput failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
