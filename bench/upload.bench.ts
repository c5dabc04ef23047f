/**
 * upload: 20 files of 30 MB (30,000,000 bytes, the largest the partner takes) in ONE call through
 * the library (bench/upload-child.fixture.ts "client"), against piping the same 20 files with a raw stream
 * as one request body ("raw"), both to the same server (bench/replay-server.fixture.ts, which reads and
 * counts every byte). Each upload runs in a fresh child process that samples its own memory every
 * 5 ms: RSS growth = peak - baseline after a forced GC, as the OS sees it (no GC while sampling).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_UPLOAD_FILE_BYTES as FILE_BYTES } from '../libs/partner-payments/src/resources/rfis/upload/upload.constants';
import { sampleFile } from '@partner-payments/testing';
import { trackChild } from './lib/child-registry.fixture';
import { emitReport, hardDeadline, median, progress, QUICK, round, withLoad } from './lib/contract.util';
import type { SampledRun } from './lib/memory-sampler.fixture';
import { startReplayServer } from './lib/replay-recorder.fixture';
import { interleave, pairedRatio } from './lib/rounds.util';

const NAME = 'upload';
const FILES = 20; // spec 8: files per call
const ROUNDS = QUICK ? 1 : 3;
const TOTAL = FILES * FILE_BYTES;

type ChildRun = SampledRun<number> & { variant: string };

function runChild(variant: 'client' | 'raw', url: string, files: string[]): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = trackChild(
      spawn(
        process.execPath,
        [
          '-r',
          'ts-node/register/transpile-only',
          join(__dirname, 'upload-child.fixture.ts'),
          variant,
          url,
          ...files,
        ],
        { cwd: join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`${variant} child exited ${code}`));
      const run = JSON.parse(line) as ChildRun;
      // The server counts what it read: the raw body exactly, the multipart body with its framing.
      if (run.value < TOTAL) return reject(new Error(`${variant}: the server read ${run.value} bytes`));
      resolve(run);
    });
  });
}

const mbPerS = (r: ChildRun) => TOTAL / 1e6 / (r.durationMs / 1000);

async function main(): Promise<void> {
  hardDeadline(QUICK ? 180_000 : 420_000, NAME);
  const dir = await mkdtemp(join(tmpdir(), 'bench-upload-'));
  const server = await startReplayServer();
  try {
    const bytes = sampleFile('application/pdf', FILE_BYTES); // PDF magic bytes, padded
    const files = Array.from({ length: FILES }, (_, i) => join(dir, `doc-${i + 1}.pdf`));
    for (const f of files) await writeFile(f, bytes);
    progress(NAME, `${FILES} files of ${FILE_BYTES} bytes written`);
    const runs = await withLoad(() =>
      interleave({
        name: NAME,
        rounds: ROUNDS,
        ours: () => runChild('client', server.url, files),
        baseline: () => runChild('raw', server.url, files),
        describe: (r) =>
          `${Math.round(mbPerS(r))} MB/s, RSS growth ${r.growth.rssMb} MiB, arrayBuffers ${r.growth.arrayBuffersMb} MiB`,
      }),
    );
    const { ours, baseline } = runs.value;
    const ratio = pairedRatio(ours.map(mbPerS), baseline.map(mbPerS));
    const rss = median(ours.map((r) => r.growth.rssMb));
    emitReport({
      bench: NAME,
      figures: [
        {
          figure: `upload ${FILES} files × 30 MB in one call`,
          unit: 'MB/s',
          ours: round(median(ours.map(mbPerS)), 1),
          baseline: round(median(baseline.map(mbPerS)), 1),
          ratio,
          target: 'RSS growth ≤ 64 MiB; MB/s ≥ 0.8×',
          pass: rss <= 64 && ratio >= 0.8,
          rounds: ROUNDS,
          notes:
            `RSS growth ${rss} MiB (raw stream ${median(baseline.map((r) => r.growth.rssMb))} MiB), ` +
            `arrayBuffers growth ${median(ours.map((r) => r.growth.arrayBuffersMb))} MiB, peak RSS ${median(ours.map((r) => r.peak.rssMb))} MiB; ` +
            `${TOTAL / 1e6} MB per call; the per-call total raised from the provider-facts 100 MB for this row; ${runs.load}`,
        },
      ],
    });
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${NAME} failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
