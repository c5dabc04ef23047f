/**
 * A deliberately divergent stand-in for the partner: an express server that proxies to
 * a sandbox but answers a few behaviours the old way, as earlier simulators and docs did:
 *  - users are auto-verified (GET /v1/users/{id} says VERIFIED: evidence §3 says they stop in REVIEW),
 *  - a reused Idempotency-Key with another body replays the first recipient (evidence: 409),
 *  - the user create answer carries `user_id` instead of `id` (evidence §3: `id`),
 *  - a call with x-api-key and no bearer gets the partner gateway's `{ message: 'Unauthorized' }`
 *    401 [T3r DRIFT-12], where the contract says `{ code, message }` (spec 5.7; CONTRACT WINS): the
 *    one planted divergence the kit explains by the contract, as a known conflict.
 * Plus one route for the redaction test, whose error message carries the caller's secrets.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';

/** The probes the stand-in makes diverge, and only those (sorted). */
export const PLANTED = [
  'gateway.missing-bearer',
  'recipients.idempotency-conflict',
  'users.create',
  'users.no-instant-verification',
];

/**
 * Probes that can also meet a planted behaviour, depending on timing: the changed-body race sends
 * ten creates under one key at once, and those reaching the stand-in after the first answer get
 * the replay planted for recipients.idempotency-conflict (the partner answers them 409).
 */
export const MAY_ALSO_DIVERGE = ['recipients.idempotency-race.changed-body'];

/** The diverging ids without the timing-dependent ones (sorted), to compare with PLANTED. */
export const plantedOnly = (ids: readonly string[]): string[] =>
  ids.filter((id) => !MAY_ALSO_DIVERGE.includes(id)).sort();

export interface StandIn {
  /** The stand-in's API base (ends in /sandbox, like the sandbox it proxies). */
  baseUrl: string;
  close(): Promise<void>;
}

const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/** The request headers the partner reads, for a stand-in route that calls the sandbox itself. */
export function apiHeaders(req: express.Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['x-api-key', 'authorization', 'idempotency-key', 'content-type'])
    if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
  return headers;
}

/** Changes an answer of the sandbox: the text to send instead of `answer.text`. */
export type Rewrite = (
  route: string,
  key: string | undefined,
  body: string,
  answer: { status: number; text: string },
) => string;

export interface ProxyBehaviour {
  /** Changes the sandbox's answer (the route is `METHOD /v1/...`, without the /sandbox prefix). */
  rewrite?: Rewrite;
  /** Answers 201 with this text instead of asking the sandbox; undefined: ask it. */
  before?: (route: string, key: string | undefined, body: string) => string | undefined;
  /** Routes or middleware of the stand-in's own, mounted before the proxying. */
  setUp?: (app: express.Express) => void;
}

/** A proxy to a sandbox that answers as `behaviour` says: the base of every stand-in here. */
export async function startRewritingProxy(
  sandboxBaseUrl: string,
  behaviour: ProxyBehaviour,
): Promise<StandIn> {
  const app = express();
  app.use(express.raw({ type: () => true, limit: '50mb' }));
  behaviour.setUp?.(app);
  app.use(async (req, res) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
    }
    const body = Buffer.isBuffer(req.body) && req.body.length ? req.body : undefined;
    const route = `${req.method} ${req.path.replace(/^\/sandbox/, '')}`;
    const key = req.get('idempotency-key');
    const sent = body?.toString() ?? '';
    const early = behaviour.before?.(route, key, sent);
    if (early !== undefined) return void res.status(201).type('json').send(early);
    const target = `${sandboxBaseUrl.replace(/\/sandbox$/, '')}${req.originalUrl}`;
    const answer = await fetch(target, { method: req.method, headers, body });
    const original = { status: answer.status, text: await answer.text() };
    const text = behaviour.rewrite ? behaviour.rewrite(route, key, sent, original) : original.text;
    res.status(answer.status);
    answer.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name) && name !== 'content-encoding') res.setHeader(name, value);
    });
    // end, not send: send would add a charset to the sandbox's content-type (evidence §11 N4).
    res.end(text);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/sandbox`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startDivergentStandIn(sandboxBaseUrl: string): Promise<StandIn> {
  const firstRecipientByKey = new Map<string, { body: string; answer: string }>();
  return startRewritingProxy(sandboxBaseUrl, {
    setUp: (app) => {
      app.get('/sandbox/v1/echo-secrets', (req, res) => {
        res.status(400).json({
          message: `rejected ${req.get('authorization')} with key ${req.get('x-api-key')} for account 4000123456 and IBAN ES9121000418450200051332`,
          // A body holding full account numbers, as a payout or recipient body does before masking.
          account_number: '4000123456',
          recipient: { account_number: 'ES9121000418450200051332', routing_number: '021000021' },
        });
      });
      app.use((req, res, next) => {
        // POST /auth needs no bearer, on either stage's base (the other stage's probes send it there).
        const gatewayOnly =
          req.get('x-api-key') && !req.get('authorization') && !/^(\/sandbox)?\/auth$/.test(req.path);
        if (gatewayOnly) return void res.status(401).json({ message: 'Unauthorized' });
        next();
      });
    },
    before: (route, key, body) => {
      if (route !== 'POST /v1/recipients' || !key || !body) return undefined;
      const first = firstRecipientByKey.get(key);
      // Old way: the first answer again, whatever the body (the partner answers 409 IDEMPOTENCY_CONFLICT).
      return first && first.body !== body ? first.answer : undefined;
    },
    rewrite: (route, key, body, answer) => {
      if (answer.status === 201 && route === 'POST /v1/recipients' && key && body)
        firstRecipientByKey.set(key, { body, answer: answer.text });
      if (answer.status === 201 && route === 'POST /v1/users') {
        const { id, ...rest } = JSON.parse(answer.text) as Record<string, unknown>;
        return JSON.stringify({ user_id: id, ...rest }); // old way: user_id
      }
      if (answer.status === 200 && /^GET \/v1\/users\/[0-9a-f-]{36}$/.test(route)) {
        const user = JSON.parse(answer.text) as { status?: string };
        // Old way: a user under verification is VERIFIED at once (a rejected one stays rejected).
        if (user.status !== 'REJECTED') return JSON.stringify({ ...user, status: 'VERIFIED' });
      }
      return answer.text;
    },
  });
}
