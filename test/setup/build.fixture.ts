/**
 * `tsc -b` of a project of this repository, as `npm run build` does, for suites that run the built
 * JS in a child process (the sandbox CLI, the reference app). Jest runs spec files in parallel
 * workers, and two `tsc -b` writing one dist/ race (a reader can load a half-written file), so
 * builds take a lock shared by every worker of every run on this checkout: one builds, the others
 * wait, then find the build up to date (about 2 s).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const REPO_ROOT = join(__dirname, '..', '..');

const LOCK_DIR = join(
  tmpdir(),
  `partner-payments-build-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}.lock`,
);

function holderAlive(): boolean {
  try {
    const pid = Number(readFileSync(join(LOCK_DIR, 'pid'), 'utf8'));
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch {
    return false; // no pid file yet (just created), or its holder died without releasing
  }
}

async function withBuildLock<T>(work: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let sawDeadHolder = 0;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR); // atomic: exactly one process creates it
      writeFileSync(join(LOCK_DIR, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A holder killed mid-build leaves the directory: twice seen dead (the pid file is written
      // right after mkdir), it is stale.
      sawDeadHolder = holderAlive() ? 0 : sawDeadHolder + 1;
      if (sawDeadHolder >= 2) rmSync(LOCK_DIR, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${LOCK_DIR}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Builds `project` (a tsconfig path relative to the repository root) and what it references. */
export async function buildProject(project: string, timeoutMs = 180_000): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc');
  await withBuildLock(async () => {
    try {
      await promisify(execFile)(process.execPath, [tsc, '-b', project], {
        cwd: REPO_ROOT,
        timeout: timeoutMs,
      });
    } catch (error) {
      const e = error as Error & { stdout?: string; stderr?: string };
      throw new Error(`tsc -b ${project} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  }, timeoutMs);
}
