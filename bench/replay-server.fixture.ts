/**
 * The "same local server" of the client figures (forked by client.bench.ts and upload.bench.ts): a
 * bare node:http server that answers with bodies recorded from the sandbox, so the client and its
 * baseline hit a server that costs next to nothing and the figure measures the client, not the
 * sandbox's own work. Routes:
 *   POST /auth                          the recorded token answer (counted)
 *   GET  /v1/payouts/{id}               the recorded payout
 *   POST /v1/rfis/{id}/items/{id}/documents  reads and counts every byte, answers an item
 *   POST /sink                          reads and counts every byte (the raw-stream baseline)
 *   GET  /__stats                       { authCalls, gets, bytesIn, lastGetUrl, lastGetHeaders }
 * (each also under /sandbox, where the client sends in the sandbox environment).
 * env REPLAY_FILE: JSON { auth: unknown, payout: unknown } recorded by lib/replay-recorder.fixture.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveUntilStopped } from './lib/forked-process.fixture';

interface Recorded {
  auth: unknown;
  payout: unknown;
}

const recorded = JSON.parse(readFileSync(process.env.REPLAY_FILE ?? '', 'utf8')) as Recorded;
const authBody = JSON.stringify(recorded.auth);
const payoutBody = JSON.stringify(recorded.payout);
const stats = {
  authCalls: 0,
  gets: 0,
  bytesIn: 0,
  lastGetUrl: '',
  lastGetHeaders: {} as IncomingMessage['headers'],
};

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Reads the whole body without keeping it: only its length. */
function drain(req: IncomingMessage): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0;
    req.on('data', (c: Buffer) => (n += c.length));
    req.on('end', () => resolve(n));
    req.on('error', reject);
  });
}

const server = createServer((req, res) => {
  // spec 1: the sandbox environment lives under {base_url}/sandbox; the client adds it.
  const url = (req.url ?? '').replace(/^\/sandbox(?=\/)/, '');
  if (req.method === 'GET' && url.startsWith('/v1/payouts/')) {
    stats.gets++;
    stats.lastGetUrl = req.url ?? '';
    stats.lastGetHeaders = req.headers;
    req.resume();
    return send(res, 200, payoutBody);
  }
  if (req.method === 'GET' && url === '/__stats') return send(res, 200, JSON.stringify(stats));
  if (req.method === 'POST') {
    void drain(req).then(
      (bytes) => {
        stats.bytesIn += bytes;
        if (url === '/auth') {
          stats.authCalls++;
          return send(res, 200, authBody);
        }
        const upload = /^\/v1\/rfis\/([^/]+)\/items\/([^/]+)\/documents$/.exec(url);
        if (upload) {
          const item = { item_id: upload[2], answer_type: 'document', documents: [{ size_bytes: bytes }] };
          return send(res, 201, JSON.stringify({ item }));
        }
        if (url === '/sink') return send(res, 200, JSON.stringify({ bytes }));
        send(res, 404, '{"message":"Not Found"}');
      },
      () => res.destroy(),
    );
    return;
  }
  req.resume();
  send(res, 404, '{"message":"Not Found"}');
});
// Pooled client sockets must survive the pause between rounds, as they would with a real partner.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveUntilStopped(
    `http://127.0.0.1:${port}`,
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve({}));
      }),
  );
});
