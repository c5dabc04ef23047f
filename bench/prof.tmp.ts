import { Agent } from 'node:http';
import axios from 'axios';
import { sandboxClient } from './lib/partner.client';
import { startReplayServer } from './lib/replay.recorder';
(async () => {
  const server = await startReplayServer();
  const client = sandboxClient(server.url, { rateLimit: false });
  await client.payouts.get(server.payoutId);
  const { lastGetHeaders: sent, lastGetUrl: path } = await server.stats();
  const headers: Record<string, string> = {};
  for (const h of ['accept', 'x-api-key', 'authorization', 'x-api-version']) if (sent[h] !== undefined) headers[h] = sent[h];
  const ka = new Agent({ keepAlive: true });
  const inst = axios.create();
  const url = server.url + path;
  const oursCfg = () => ({ method: 'GET', url, headers: { ...headers }, data: undefined, responseType: 'json' as const, timeout: 10000, validateStatus: () => true, maxRedirects: 0, maxBodyLength: Infinity, maxContentLength: 64 * 1024 * 1024, transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: true } });
  const sides: Record<string, () => Promise<unknown>> = {
    ours: () => client.payouts.get(server.payoutId),
    oursHttp: () => client.http.request({ method: 'GET', path: `/v1/payouts/${server.payoutId}` }),
    bareKA: () => inst.request({ method: 'GET', url, headers: { ...headers }, maxRedirects: 0, httpAgent: ka }),
    bareGlobal: () => inst.request({ method: 'GET', url, headers: { ...headers }, maxRedirects: 0 }),
    cfgGlobal: () => inst.request(oursCfg()),
    cfgNoTimeout: () => inst.request({ ...oursCfg(), timeout: 0 }),
    cfgKA: () => inst.request({ ...oursCfg(), httpAgent: ka }),
  };
  const only = process.argv[3];
  if (only) for (const k of Object.keys(sides)) if (!only.split(',').includes(k)) delete sides[k];
  const N = Number(process.argv[2] ?? 500);
  const acc: Record<string, number[]> = {};
  for (let round = 0; round < Number(process.env.ROUNDS ?? 12); round++) for (const [name, call] of Object.entries(sides)) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) await call();
    const cpu = process.cpuUsage(c0);
    if (round > 1) (acc[name] ??= []).push((cpu.user + cpu.system) / N);
  }
  for (const [k, v] of Object.entries(acc)) { v.sort((a, b) => a - b); console.error(k.padEnd(12), 'median cpu µs/call', v[v.length >> 1].toFixed(0), 'min', v[0].toFixed(0)); }
  await server.stop();
})();
