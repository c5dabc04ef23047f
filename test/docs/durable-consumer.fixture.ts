/**
 * The durable consumer app of durable-consumer.spec.ts: a CommonJS Nest app (scaffoldCommonJsNestApp)
 * that follows libs/partner-payments-typeorm/README.md alone (its install block with the packed
 * tarballs, its files), built with its own tsc, run as its own process (`node dist/main.js`) so the
 * spec can SIGKILL it, on a SQLite file or on a throwaway PostgreSQL of its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createDatabase, startThrowawayPostgres, type ThrowawayPostgres } from '../../scripts/pg-throwaway';
import {
  compileAndBuild,
  files,
  installCommands,
  npmInstall,
  step,
  writeFiles,
} from './consumer-app.fixture';
import { cleanEnv, merge, start, writeJson, type Started } from './scratch-commands.fixture';
import { readBlocks } from './readme-blocks.fixture';

export const TYPEORM_README = 'libs/partner-payments-typeorm/README.md';

/** libs/partner-payments-typeorm/README.md in `app`, as written; answers the install output. */
export function followTypeOrmReadme(app: string, tarballs: string): string {
  const blocks = readBlocks(TYPEORM_README);
  const pkgSteps = blocks.filter((b) => b.role.kind === 'consumer-app' && b.role.step === 'package.json');
  if (pkgSteps.length > 0) {
    const pkgPath = join(app, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, unknown>;
    writeJson(pkgPath, merge(pkg, JSON.parse(step(blocks, 'package.json').code) as Record<string, unknown>));
  }
  let output = '';
  for (const args of installCommands(step(blocks, 'install'), tarballs)) {
    for (const tgz of args.filter((a) => a.endsWith('.tgz')))
      if (!existsSync(tgz)) throw new Error(`${tgz} was not packed`);
    output += npmInstall(app, args);
  }
  writeFiles(app, files(blocks));
  if (!compileAndBuild(app)) throw new Error(`${TYPEORM_README}: the app did not build`);
  return output;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The consumer app's process on a fixed port (kept across restarts, as a deployed app keeps its URL). */
export class ConsumerProcess {
  private current: Started | undefined;

  constructor(
    private readonly app: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  output(): string {
    return this.current?.output() ?? '';
  }

  async start(): Promise<void> {
    const started = start(
      this.app,
      process.execPath,
      ['dist/main.js'],
      cleanEnv({ ...this.env, PORT: String(this.port) }),
    );
    this.current = started;
    await started.waitFor(/listening on http:\/\/\S+:\d+/, 60_000);
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed, as in a crash or an OOM kill. */
  async kill(): Promise<void> {
    const child = this.current?.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(child.pid!, 'SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    await this.current?.stop();
  }
}

/** A throwaway PostgreSQL for the spec (the docs project has no global one), and a database on it. */
export async function throwawayDatabase(): Promise<{ url: string; server: ThrowawayPostgres }> {
  const server = await startThrowawayPostgres({ database: 'durable_consumer' });
  return { url: await createDatabase(server.url, 'durable_consumer_app'), server };
}
