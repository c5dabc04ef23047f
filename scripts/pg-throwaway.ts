/**
 * A throwaway PostgreSQL 15 cluster: initdb into a temp dir, start it on 127.0.0.1 and a free
 * port (unix socket inside the temp dir), create one database, hand back its URL; stop() shuts it
 * down and deletes the dir. Used by the e2e globalSetup (test/setup) and by hand:
 *
 *   npx ts-node scripts/pg-throwaway.ts        # prints DATABASE_URL=postgres://..., Ctrl-C stops
 *
 * initdb refuses to run as root, so under root every server command runs as the `postgres`
 * system user (runuser) on a temp dir chowned to it; otherwise as the current user.
 * Binaries: PG_BIN_DIR, else /usr/lib/postgresql/15/bin (Debian/Ubuntu postgresql-15).
 */
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPgClient } from './pg-client.util';

export const DEFAULT_PG_BIN_DIR = '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  url: string;
  port: number;
  baseDir: string;
  dataDir: string;
  stop(): Promise<void>;
}

export interface ThrowawayPostgresOptions {
  binDir?: string;
  database?: string;
  /**
   * Keep fsync and full-page writes on, as a production server runs. Default false: a test
   * cluster trades durability for speed (fsync=off); a benchmark of durable writes needs true.
   */
  durable?: boolean;
  /** More server settings (`-c name=value`), e.g. { shared_preload_libraries: 'pg_stat_statements' } to profile. */
  settings?: Record<string, string>;
}

/** A port the kernel just gave out on 127.0.0.1; racy in theory, fine for a test cluster. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface RunAs {
  uid: number;
  gid: number;
  user: string | null;
}

function resolveRunAs(): RunAs {
  const uid = process.getuid?.() ?? -1;
  if (uid !== 0) return { uid, gid: process.getgid?.() ?? -1, user: null };
  // Under root: the `postgres` account that the postgresql package creates.
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root but there is no `postgres` system user to run initdb as');
  const [, , u, g] = line.split(':');
  return { uid: Number(u), gid: Number(g), user: 'postgres' };
}

function run(runAs: RunAs, binary: string, args: string[]): string {
  const [cmd, argv] = runAs.user ? ['runuser', ['-u', runAs.user, '--', binary, ...args]] : [binary, args];
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir() });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${binary} ${args.join(' ')} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

const DIR_PREFIX = 'pg-throwaway-';
const OWNER_FILE = 'owner.pid';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function stopSync(runAs: RunAs, pgCtl: string, baseDir: string): void {
  const dataDir = join(baseDir, 'data');
  if (existsSync(join(dataDir, 'postmaster.pid'))) {
    try {
      run(runAs, pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch (error) {
      console.error(`[pg-throwaway] stop failed: ${(error as Error).message}`);
    }
  }
  rmSync(baseDir, { recursive: true, force: true });
}

/**
 * Clusters left by a process that died without its teardown (killed test run): each temp dir
 * records its owner's pid; a dir whose owner is gone is stopped and deleted.
 */
export function reapOrphans(binDir: string = process.env.PG_BIN_DIR ?? DEFAULT_PG_BIN_DIR): number {
  const pgCtl = join(binDir, 'pg_ctl');
  if (!existsSync(pgCtl)) return 0;
  let reaped = 0;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const baseDir = join(tmpdir(), name);
    const ownerFile = join(baseDir, OWNER_FILE);
    const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8')) : NaN;
    if (Number.isInteger(owner) && isAlive(owner)) continue;
    stopSync(resolveRunAs(), pgCtl, baseDir);
    reaped++;
  }
  return reaped;
}

export async function startThrowawayPostgres(
  options: ThrowawayPostgresOptions = {},
): Promise<ThrowawayPostgres> {
  const binDir = options.binDir ?? process.env.PG_BIN_DIR ?? DEFAULT_PG_BIN_DIR;
  const database = options.database ?? 'reference_app_test';
  const initdb = join(binDir, 'initdb');
  const pgCtl = join(binDir, 'pg_ctl');
  if (!existsSync(initdb) || !existsSync(pgCtl)) {
    throw new Error(
      `PostgreSQL server binaries not found in ${binDir} (need initdb and pg_ctl). ` +
        'Install postgresql-15 (apt-get install postgresql-15) or set PG_BIN_DIR.',
    );
  }
  reapOrphans(binDir);
  const runAs = resolveRunAs();
  const baseDir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
  writeFileSync(join(baseDir, OWNER_FILE), String(process.pid));
  const dataDir = join(baseDir, 'data');
  const socketDir = join(baseDir, 'sock');
  mkdirSync(socketDir);
  for (const dir of [baseDir, socketDir]) chownSync(dir, runAs.uid, runAs.gid);

  const port = await findFreePort();
  // Also on an exit without teardown (an uncaught error, process.exit): stopping is synchronous.
  const onExit = (): void => stopSync(runAs, pgCtl, baseDir);
  process.once('exit', onExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', onExit);
    stopSync(runAs, pgCtl, baseDir);
  };
  try {
    // trust auth is safe: the server listens on 127.0.0.1 and a socket in a private temp dir only.
    run(runAs, initdb, [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const speed = options.durable ? '' : ' -c fsync=off -c full_page_writes=off';
    const extra = Object.entries(options.settings ?? {})
      .map(([name, value]) => ` -c ${name}=${value}`)
      .join('');
    const serverOpts = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1${speed}${extra}`;
    run(runAs, pgCtl, [
      '-D',
      dataDir,
      '-l',
      join(baseDir, 'server.log'),
      '-o',
      serverOpts,
      '-w',
      '-t',
      '60',
      'start',
    ]);
    const admin = newPgClient({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/${database}`, port, baseDir, dataDir, stop };
}

/** Creates one more empty database on a running throwaway cluster (one per suite keeps them apart). */
export async function createDatabase(baseUrl: string, name: string): Promise<string> {
  const url = new URL(baseUrl);
  const admin = newPgClient({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

if (require.main === module) {
  startThrowawayPostgres({ database: process.argv[2] ?? 'reference_app' })
    .then((pg) => {
      console.log(`DATABASE_URL=${pg.url}`);
      console.log('Throwaway PostgreSQL running; Ctrl-C stops it and deletes its data.');
      const keepAlive = setInterval(() => undefined, 1 << 30); // nothing else holds the event loop
      const shutdown = (): void => {
        clearInterval(keepAlive);
        void pg.stop().then(() => process.exit(0));
      };
      process.on('SIGINT', shutdown);
      process.on('SIGTERM', shutdown);
      process.on('SIGHUP', shutdown);
    })
    .catch((error: Error) => {
      console.error(error.message);
      process.exit(1);
    });
}
