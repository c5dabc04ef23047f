import { execFileSync, spawn } from 'node:child_process';
import { PartnerSandboxControlClient } from '@partner-payments/testing';
import { buildProject } from '../../setup/build.fixture';
import { Api, individual } from '../sandbox.fixture';
import { CLI as cli, startCli, stop } from './sandbox-cli.fixture';

describe('sandbox CLI (npm run sandbox)', () => {
  // The CLI runs from dist/, as `npm run sandbox` does: build the library first (under the lock
  // the reliability suite's app builds share: two tsc -b of one dist/ race).
  beforeAll(() => buildProject('libs/partner-payments-testing/tsconfig.lib.json'), 180000);

  it('--help prints the flags and their environment variables', () => {
    const help = execFileSync(process.execPath, [cli, '--help']).toString();
    expect(help).toContain('--port');
    expect(help).toContain('PARTNER_SANDBOX_WEBHOOK_SECRET');
    expect(help).toContain('--token-ttl');
  });

  it('the built bin has the conformance subcommand (test/conformance runs it end to end)', () => {
    const help = execFileSync(process.execPath, [cli, 'conformance', '--help']).toString();
    expect(help).toContain('--allow-writes');
    expect(() => execFileSync(process.execPath, [cli, 'conformance'], { stdio: 'pipe', env: {} })).toThrow(
      /base-url is required/,
    );
  });

  it('refuses a bad flag with exit code 2', () => {
    expect(() => execFileSync(process.execPath, [cli, '--port', 'x'], { stdio: 'pipe' })).toThrow();
  });

  it('serves with credentials and TTL from flags and env, never prints secrets, stops on SIGTERM', async () => {
    const { child, baseUrl, output } = await startCli(
      ['--port', '0', '--api-key', 'cli-key-123', '--token-ttl', '86400', '--client-id', 'cli-client'],
      {
        PARTNER_SANDBOX_PASSWORD: 'cli-password-456',
        PARTNER_SANDBOX_WEBHOOK_SECRET: 'cli-secret-789',
      },
    );
    try {
      const api = new Api(`${baseUrl}/sandbox`, {
        apiKey: 'cli-key-123',
        clientId: 'cli-client',
        password: 'cli-password-456',
      });
      const auth = await api.call('POST', '/auth', {
        body: { client_id: 'cli-client', password: 'cli-password-456' },
        auth: false,
      });
      expect(auth.status).toBe(200);
      expect(auth.body.data.expires_in).toBe(86400);
      const control = new PartnerSandboxControlClient(baseUrl);
      expect((await control.counters()).authCalls).toBe(1);
      expect(output()).toContain('cli-client');
      for (const secret of ['cli-key-123', 'cli-password-456', 'cli-secret-789'])
        expect(output()).not.toContain(secret);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 30000);

  // spec 2.4 (`authorizedBanks`: default []): the CLI authorizes no bank unless told, like a new
  // partner account; --authorized-banks (or --banks, or PARTNER_SANDBOX_AUTHORIZED_BANKS) names them.
  it('authorizes no bank by default and its banner says so; --authorized-banks names them', async () => {
    const creds = {
      apiKey: 'sandbox_test_api_key',
      clientId: 'sandbox_test_client',
      password: 'sandbox_test_password',
    };
    const banksOf = async (baseUrl: string) => {
      const api = await new Api(`${baseUrl}/sandbox`, creds).login();
      const config = await api.call('GET', '/v1/clients/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b');
      const user = await api.call('POST', '/v1/users', { body: individual() });
      await new PartnerSandboxControlClient(baseUrl).setUserVerificationOutcome(user.body.id, 'approved');
      const va = await api.call('POST', '/v1/virtual-accounts', {
        body: { user_id: user.body.id, type: 'US_BANK', bank: 'bank_a' },
      });
      return { banks: config.body.data.authorizedBanks, bankA: va.status };
    };
    const plain = await startCli(['--port', '0', '--quiet']);
    try {
      expect(await banksOf(plain.baseUrl)).toEqual({ banks: [], bankA: 400 });
      // The banner says so, and how to change it, before the first refusal does.
      expect(plain.output()).toMatch(/authorized banks: none\b.*--authorized-banks bank_a,bank_d/);
    } finally {
      expect(await stop(plain.child)).toBe(0);
    }
    const named = await startCli(['--port', '0', '--quiet', '--authorized-banks', 'bank_a,bank_d']);
    try {
      expect(await banksOf(named.baseUrl)).toEqual({ banks: ['bank_a', 'bank_d'], bankA: 201 });
      expect(named.output()).toContain('authorized banks: bank_a, bank_d  (virtual accounts may use these');
    } finally {
      expect(await stop(named.child)).toBe(0);
    }
  }, 30000);

  it('prints a failed delivery with the webhook URL masked (never its credentials) and stops on SIGINT', async () => {
    const { child, baseUrl, output } = await startCli([
      '--port',
      '0',
      '--webhook-url',
      'http://hook-user:hook-pass-321@127.0.0.1:9/hooks?token=tok-654',
    ]);
    let code: number | null = null;
    try {
      const api = await new Api(`${baseUrl}/sandbox`, {
        apiKey: 'sandbox_test_api_key',
        clientId: 'sandbox_test_client',
        password: 'sandbox_test_password',
      }).login();
      expect((await api.call('POST', '/v1/users', { body: individual() })).status).toBe(201);
      const control = new PartnerSandboxControlClient(baseUrl);
      await control.flushWebhooks();
      expect((await control.deliveries()).every((d) => d.outcome === 'failed')).toBe(true);
      const deadline = Date.now() + 5000;
      while (!output().includes('not delivered') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(output()).toContain('user.created to http://***@127.0.0.1:9/hooks?token=*** not delivered');
    } finally {
      code = await new Promise<number | null>((resolve) => {
        child.once('exit', (c) => resolve(c));
        child.kill('SIGINT');
      });
    }
    expect(code).toBe(0);
    for (const secret of ['hook-pass-321', 'tok-654', 'sandbox_test_api_key', 'sandbox_test_password'])
      expect(output()).not.toContain(secret);
  }, 30000);

  it('stops when its parent goes away (`npm run sandbox` killed: the signal never reaches node)', async () => {
    // `sh -c "... && node main.js"` as npm runs it; `&& true` keeps sh from exec-ing node.
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${cli}" --port 0 --quiet && true`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    shell.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    const deadline = Date.now() + 15000;
    while (!out.includes('webhooks:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const baseUrl = /listening on (http:\/\/\S+) /.exec(out)?.[1];
    expect(baseUrl).toBeDefined();
    const nodePid = Number(
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(shell.pid)])
        .toString()
        .trim(),
    );
    expect(nodePid).toBeGreaterThan(0);
    shell.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(nodePid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const until = Date.now() + 5000;
    while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const leaked = alive();
    if (leaked) process.kill(nodePid, 'SIGKILL'); // never leave it running, even when failing
    expect(leaked).toBe(false);
    await expect(fetch(`${baseUrl}/auth`, { method: 'POST' })).rejects.toThrow();
  }, 30000);
});
