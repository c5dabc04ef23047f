/**
 * Starts the replay server (bench/replay-server.fixture.ts) with answers recorded from the sandbox: the
 * sandbox's own POST /auth answer and a real payout from GET /v1/payouts/{id}, so the client parses
 * exactly what it parses in production-like runs, from a server that costs next to nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axios from 'axios';
import { SANDBOX_DEFAULTS } from '@partner-payments/testing';
import { startForkedServer, type ForkedServer } from './forked-process.fixture';
import { sandboxClient } from './partner.client';
import { createPayout } from './payout.fixture';
import { startSandboxProcess } from './sandbox-process.fixture';

export interface ReplayServer extends ForkedServer {
  payoutId: string;
  stats(): Promise<{
    authCalls: number;
    gets: number;
    bytesIn: number;
    lastGetUrl: string;
    lastGetHeaders: Record<string, string>;
  }>;
}

export async function startReplayServer(): Promise<ReplayServer> {
  const sandbox = await startSandboxProcess();
  const dir = await mkdtemp(join(tmpdir(), 'bench-replay-'));
  const file = join(dir, 'recorded.json');
  let payoutId: string;
  try {
    const client = sandboxClient(sandbox.baseUrl, { rateLimit: false });
    payoutId = await createPayout(client, sandbox.baseUrl);
    const auth = await axios.post(
      `${sandbox.baseUrl}/sandbox/auth`,
      { client_id: SANDBOX_DEFAULTS.clientId, password: SANDBOX_DEFAULTS.password },
      { headers: { 'x-api-key': SANDBOX_DEFAULTS.apiKey } },
    );
    const payout = await client.http.request({ method: 'GET', path: `/v1/payouts/${payoutId}` });
    await writeFile(file, JSON.stringify({ auth: auth.data, payout: payout.data }));
  } finally {
    await sandbox.close();
  }
  try {
    const server = await startForkedServer(join(__dirname, '..', 'replay-server.fixture.ts'), {
      REPLAY_FILE: file,
    });
    return {
      ...server,
      payoutId,
      stats: async () => (await axios.get(`${server.url}/__stats`)).data,
    };
  } finally {
    await rm(dir, { recursive: true, force: true }); // the server read it at start
  }
}
