/**
 * The far ends of bench/instrumentation.bench.ts, in a process of their own so their CPU does not
 * count against the side measured: a partner stub (POST /sandbox/auth, GET /sandbox/v1/payouts/:id
 * with a fixed payout, as the sandbox answers it) and an OTLP/HTTP sink that accepts every export.
 * Sends { partner, sink } (base URLs) over IPC once both listen.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

const payout = JSON.stringify({
  payout_id: '0b9f3c1e-1111-4222-8333-444455556666',
  status: 'PENDING',
  amount: '10.00',
  currency: 'USD',
  recipient_id: '2c1d0f3e-2222-4333-8444-555566667777',
  user_id: '3d2e1f4a-3333-4444-8555-666677778888',
  reference_number: null,
  created_at: '2026-11-01T10:00:00Z',
});
const auth = JSON.stringify({
  message: 'ok',
  data: { access_token: 'bench-token', expires_in: 86400, token_type: 'Bearer' },
});

const partner: RequestListener = (req, res) => {
  req.resume();
  req.on('end', () => {
    const body = req.url?.startsWith('/sandbox/auth') ? auth : payout;
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'bench' }).end(body);
  });
};

const sink: RequestListener = (req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
};

async function listen(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

void Promise.all([listen(partner), listen(sink)]).then(([p, s]) => process.send?.({ partner: p, sink: s }));
process.on('disconnect', () => process.exit(0));
