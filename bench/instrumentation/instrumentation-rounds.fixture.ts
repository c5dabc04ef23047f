/**
 * What the two sides of bench/instrumentation.bench.ts share: the sides, the interleaved rounds,
 * the figures (bench contract), the child processes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';

export const NAME = 'instrumentation';
export const QUICK = process.argv.includes('--quick');
export const ROUNDS = QUICK ? 3 : 9;
export const CLIENT_ROUND_MS = QUICK ? 700 : 1500;
export const WEBHOOK_ROUND_S = QUICK ? 1 : 2;
export const CALLERS = 16;
export const SAMPLE_RATIO = 0.1;
export const SECRET = 'whsec_bench_instrumentation_0001';
export const PAYOUT_ID = '0b9f3c1e-1111-4222-8333-444455556666';
/**
 * `control` is a second "off" (A/A): its ratio to "off" is what these ratios read when the true
 * cost is zero, the noise floor a 5% target has to be judged against on this machine.
 */
export const SIDES = ['off', 'on', 'sampled', 'control'] as const;
export type Side = (typeof SIDES)[number];
export interface Round {
  cpuUsPerOp: number;
  perSecond: number;
}
export const children: ChildProcess[] = [];

/** The "on" side's SDK, as the app builds it from OTEL_*: a batch of spans over OTLP/HTTP to the sink. */
export function tracer(sinkUrl: string, ratio: number): NodeTracerProvider {
  return new NodeTracerProvider({
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${sinkUrl}/v1/traces` }))],
  });
}

/** A client of the partner stub (instrumentation-servers.fixture.ts): limiter off, quiet. */
export function stubClientOptions(partnerUrl: string): PartnerPaymentsModuleOptions {
  return {
    baseUrl: partnerUrl,
    environment: 'sandbox',
    apiKey: 'bench-api-key',
    clientId: 'bench-client',
    password: 'bench-password',
    rateLimit: false,
    logger: { log() {}, warn() {}, error() {} },
  };
}

export const log = (m: string): void =>
  void process.stderr.write(`[${NAME}] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const load = (): number => Math.round(loadavg()[0] * 100) / 100;

export function start<T>(
  file: string,
  env: Record<string, string> = {},
  name = file.replace(/\.ts$/, ''),
): Promise<{ child: ChildProcess; info: T }> {
  // BENCH_CPU_PROF_DIR: each child writes a V8 CPU profile there when it exits (node --cpu-prof).
  const profDir = process.env.BENCH_CPU_PROF_DIR;
  const prof = profDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=${name}.${Date.now()}.cpuprofile`]
    : [];
  const child = fork(join(__dirname, file), [], {
    // Not ts-node's register: it loads `domain`, whose promise hook would tax both sides and hide
    // part of what the instrumentation's own async context costs (lib/transpile.register.js).
    execArgv: [...prof, '-r', join(__dirname, '..', 'lib', 'transpile.register.js')],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start within 90 s`)), 90_000);
    child.once('message', (info: T) => {
      clearTimeout(timer);
      resolve({ child, info });
    });
    child.once('exit', (code) => reject(new Error(`${file} exited early (${code})`)));
  });
}

/** After a warm-up round, every side once per round, the order rotating, so no side always runs first or after the same one. */
export async function interleave(run: (side: Side) => Promise<Round>): Promise<Record<Side, Round[]>> {
  // One round per side first, not counted: the first rounds ran 3-4x the CPU of later ones (JIT, caches).
  for (const side of SIDES) await run(side);
  const out: Record<Side, Round[]> = { off: [], on: [], sampled: [], control: [] };
  for (let i = 0; i < ROUNDS; i++)
    for (let k = 0; k < SIDES.length; k++) {
      const side = SIDES[(i + k) % SIDES.length];
      out[side].push(await run(side));
    }
  return out;
}

export function figures(
  what: string,
  unit: string,
  plural: string,
  runs: Record<Side, Round[]>,
  notes: string,
) {
  const rate = (side: Side) => Math.round(median(runs[side].map((r) => r.perSecond)));
  const label: Record<Exclude<Side, 'off'>, string> = {
    on: 'instrumentation on (every trace exported) vs off',
    sampled: `instrumentation on (traces sampled at ${SAMPLE_RATIO * 100}%) vs off`,
    control: 'A/A control: off vs off, the noise floor',
  };
  return (['on', 'sampled', 'control'] as const).map((side) => {
    const ratio = median(runs[side].map((r, i) => r.cpuUsPerOp / runs.off[i].cpuUsPerOp));
    return {
      figure: `${what}: CPU per ${unit}, ${label[side]}`,
      unit: `µs/${unit}`,
      ours: Math.round(median(runs[side].map((r) => r.cpuUsPerOp))),
      baseline: Math.round(median(runs.off.map((r) => r.cpuUsPerOp))),
      ratio: Math.round(ratio * 1000) / 1000,
      // The control has no cost to meet: it is reported, and the other two are read against it.
      target: side === 'control' ? 'reported (1.00 if the bench had no noise)' : '≤ 1.05',
      pass: side === 'control' || ratio <= 1.05,
      rounds: ROUNDS,
      notes: `${notes}; ${plural}/s (median) ${rate(side)} ${side === 'control' ? 'control' : 'on'} vs ${rate('off')} off`,
    };
  });
}
