/**
 * The reference app in a child process, started the way a user starts it (`npm start`: the built
 * JS, `node apps/reference-app/dist/main.js`), so a test can SIGKILL it at a chosen moment and
 * start it again on the same database: a real process, a real socket, a real SQLite file or the
 * throwaway PostgreSQL. The in-process app (app.fixture.ts startTestApp) cannot be killed like that.
 *
 * The port is chosen once and kept across restarts, as a deployed app keeps its address: the
 * partner goes on sending webhooks to the same URL while the app is down.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartnerSandbox } from '@partner-payments/testing';
import { NEVER, partnerEnv, TEST_API_KEY, TEST_AUTH_HEADERS, TEST_OPERATOR_TOKEN } from './app.fixture';
import { buildProject, REPO_ROOT } from './build.fixture';

const MAIN = join(REPO_ROOT, 'apps', 'reference-app', 'dist', 'main.js');

let built: Promise<void> | undefined;

/** `npm run build` (tsc -b of the app and both libraries), once per Jest worker; call in beforeAll with a long timeout. */
export function buildReferenceApp(): Promise<void> {
  built ??= buildProject('apps/reference-app/tsconfig.app.json');
  return built;
}

export interface AppProcessOptions {
  /** DATABASE_URL: `sqlite:<file>` or a PostgreSQL URL (test-database.fixture databaseUrlFor). */
  databaseUrl: string;
  /** The partner: the app talks to it like to a remote partner, and it delivers webhooks to the app. */
  sandbox: PartnerSandbox;
  /**
   * More variables. By default every cron job is scheduled for a date that never comes (tests
   * trigger them by their endpoints), the demo is off, and logs are at the default level.
   */
  env?: Record<string, string>;
  /** How long to wait for the port to accept connections, then for the app to be ready. Default 30 s. */
  startTimeoutMs?: number;
  /**
   * After the port opens, wait until /health stops saying `starting` (the start-up partner calls,
   * which run after listen). Default true.
   */
  waitForReady?: boolean;
}

const children = new Set<ChildProcess>();
// A failing test must not leave an app running after its worker: kill what is still ours.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export class AppProcess {
  private child: ChildProcess | null = null;
  private log = '';
  /** Every start of this app (1 after start(), 2 after one restart...). */
  starts = 0;

  private constructor(
    readonly options: AppProcessOptions,
    readonly port: number,
    private readonly cwd: string,
  ) {}

  /** Starts the app and resolves once its port accepts connections. */
  static async start(options: AppProcessOptions): Promise<AppProcess> {
    // Its own working directory: the app reads `.env` from there, and a developer's must not leak in.
    const app = new AppProcess(options, await freePort(), mkdtempSync(join(tmpdir(), 'app-process-')));
    await app.launch();
    // The operator registers the app's webhook URL at the partner (spec 6.1.1); it survives restarts.
    await options.sandbox.control.setWebhookUrl(`${app.url}/webhooks/partner`);
    return app;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * One HTTP call to the app, JSON in and out, as its callers and operators make it (both test
   * credentials sent). Throws when no answer comes (refused, reset: the app is down or was killed
   * mid-request).
   */
  async request(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<{ status: number; body: any }> {
    const answer = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...TEST_AUTH_HEADERS,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await answer.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: answer.status, body };
  }

  /** Everything the app wrote to stdout and stderr, over all its starts. */
  output(): string {
    return this.log;
  }

  /** SIGKILL: no shutdown hook, no drain, no flush. Resolves once the process is gone. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** Starts it again on the same database, port and configuration. */
  async restart(): Promise<void> {
    if (this.running) throw new Error('restart() while the app still runs: kill() or stop() it first');
    await this.launch();
  }

  /** SIGTERM (a graceful stop; SIGKILL if it has not exited after 10 s), then removes the working directory. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM', 10_000);
    rmSync(this.cwd, { recursive: true, force: true });
  }

  private async signal(signal: NodeJS.Signals, killAfterMs?: number): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer =
      killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    await exited;
    clearTimeout(timer);
  }

  private async launch(): Promise<void> {
    this.starts += 1;
    this.log += `\n--- start ${this.starts} ---\n`;
    const child = spawn(process.execPath, [MAIN], {
      cwd: this.cwd,
      // Only what the app needs: a developer's DATABASE_URL or PARTNER_* must not leak in.
      env: {
        PATH: process.env.PATH,
        NO_COLOR: '1',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        DATABASE_URL: this.options.databaseUrl,
        DEMO: 'false',
        RECONCILE_CRON: NEVER,
        INBOX_REDELIVERY_CRON: NEVER,
        VERSION_PIN_CRON: NEVER,
        DEPOSIT_RECONCILE_CRON: NEVER,
        // Jobs that run on their own (outbox re-drive, inbox pruning); ignored by an app without them.
        PAYOUT_REDRIVE_CRON: NEVER,
        INBOX_PRUNE_CRON: NEVER,
        // The test credentials; request() sends them.
        OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
        APP_API_KEYS: TEST_API_KEY,
        ...partnerEnv(this.options.sandbox),
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    children.add(child);
    child.once('exit', () => children.delete(child));
    const append = (chunk: Buffer) => (this.log += chunk.toString());
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 30_000);
    for (;;) {
      if (!this.running)
        throw new Error(
          `the app exited (${child.exitCode ?? child.signalCode}) before listening:${this.log}`,
        );
      if (await accepts(this.port)) break;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the app did not listen on ${this.port} in time:${this.log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    while (this.options.waitForReady !== false && (await this.health()) === 'starting') {
      if (Date.now() > deadline) throw new Error(`the app was still starting after its deadline:${this.log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** `starting` until the app's start-up partner calls have finished once (GET /health/ready). */
  private async health(): Promise<string> {
    const answer = await this.request('GET', '/health/ready');
    return String(answer.body?.details?.startup?.state ?? answer.body?.status);
  }
}
