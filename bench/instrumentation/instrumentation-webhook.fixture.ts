/**
 * The webhook side of bench/instrumentation.bench.ts: one reference app per side (the control, a
 * second uninstrumented app, shows what a different process alone moves the ratio), CPU per delivery.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildUserCreated, signPartnerWebhook } from '@partner-payments/testing';
import {
  figures,
  interleave,
  load,
  log,
  SAMPLE_RATIO,
  SECRET,
  SIDES,
  start,
  WEBHOOK_ROUND_S,
  type Side,
} from './instrumentation-rounds.fixture';

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const on = (m: { cpuUs?: number }) => {
      if (typeof m.cpuUs !== 'number') return;
      child.off('message', on);
      resolve(m.cpuUs);
    };
    child.on('message', on);
    child.send('cpu');
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send('stop');
  return exited;
}

async function deliver(url: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `${url}/webhooks/partner`,
    connections: 8,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const body = JSON.stringify(
            buildUserCreated({ event_id: randomUUID(), user_id: randomUUID(), status: 'CREATED' }),
          );
          const signature = signPartnerWebhook(body, SECRET);
          return {
            ...req,
            body,
            headers: { 'content-type': 'application/json', 'x-signature-sha256': signature },
          };
        },
      },
    ],
  });
  return result['2xx'];
}

/**
 * The environment of instrumentation-app.fixture.ts for one instrumentation mode: off (no hooks,
 * no SDK), hooks (the metrics hooks, no SDK: no OTEL_* variable), sampled (hooks and the SDK
 * keeping SAMPLE_RATIO of the traces), sampled-out (hooks and the SDK keeping none: what every
 * trace not sampled costs, the floor of any ratio) or on (hooks and every trace), exported to
 * `sinkUrl`.
 */
export function instrumentedAppEnv(
  databaseUrl: string,
  partnerUrl: string,
  sinkUrl: string,
  mode: 'off' | 'hooks' | 'sampled' | 'sampled-out' | 'on',
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PARTNER_BASE_URL: partnerUrl,
    PARTNER_ENV: 'sandbox',
    PARTNER_API_KEY: 'bench-api-key',
    PARTNER_CLIENT_ID: 'bench-client',
    PARTNER_PASSWORD: 'bench-password',
    PARTNER_WEBHOOK_SECRET: SECRET,
    INBOX_ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 3).toString('base64')}`,
    ...(mode === 'off' ? { BENCH_INSTRUMENTATION: 'off' } : {}),
    ...(mode === 'sampled' || mode === 'sampled-out' || mode === 'on'
      ? { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl }
      : {}),
    ...(mode === 'sampled'
      ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(SAMPLE_RATIO) }
      : {}),
    ...(mode === 'sampled-out' ? { OTEL_TRACES_SAMPLER: 'parentbased_always_off' } : {}),
  };
}

export async function webhookFigures(partnerUrl: string, sinkUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instrumentation-'));
  const env = (side: Side): Record<string, string> =>
    instrumentedAppEnv(
      `sqlite:${join(dir, `${side}.sqlite`)}`,
      partnerUrl,
      sinkUrl,
      side === 'control' ? 'off' : side,
    );
  try {
    const apps = {} as Record<Side, { child: ChildProcess; info: { url: string } }>;
    for (const side of SIDES)
      apps[side] = await start<{ url: string }>('instrumentation-app.fixture.ts', env(side), `app-${side}`);
    for (const side of SIDES) await deliver(apps[side].info.url, 1); // warm-up
    const loadBefore = load();
    const runs = await interleave(async (side) => {
      const { child, info } = apps[side];
      const before = await cpuOf(child);
      const accepted = await deliver(info.url, WEBHOOK_ROUND_S);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the handlers after the 2xx
      const used = (await cpuOf(child)) - before;
      return { cpuUsPerOp: used / Math.max(1, accepted), perSecond: accepted / WEBHOOK_ROUND_S };
    });
    for (const side of SIDES)
      log(`webhook ${side}: ${runs[side].map((r) => Math.round(r.cpuUsPerOp)).join(' ')} µs/delivery`);
    // Stopped while the OTLP sink still listens: their last export flushes and they exit by
    // themselves (a --cpu-prof profile is then written). 20 s at most.
    await Promise.race([
      Promise.all(SIDES.map((side) => stopped(apps[side].child))),
      new Promise((resolve) => setTimeout(resolve, 20_000)),
    ]);
    return figures(
      'webhook',
      'delivery',
      'deliveries',
      runs,
      `signed user.created, 8 connections, ${WEBHOOK_ROUND_S} s rounds, the app process's CPU (handlers after the 2xx included), one app per side on its own SQLite file; load ${loadBefore}→${load()}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
