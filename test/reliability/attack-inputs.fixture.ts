/**
 * Instruments of the attack-input suite: a raw-socket sender of an endless chunked body (an attacker
 * that never stops writing and never reads the answer on purpose), a counter of what a server read
 * from its sockets, and a server that answers a download's headers and then stalls or trickles.
 * Everything is measured from real sockets; counts feed the reliability tally.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import { recordTally } from './tally.fixture';

export interface EndlessBodyOutcome {
  /** The answer's status, when a status line arrived. */
  status: number | null;
  /** The answer's Connection header. */
  connection: string | null;
  /** The answer's body (what arrived after its headers), when headers arrived. */
  body: string | null;
  /** Milliseconds from the first byte written until the server closed the connection; null if it never did. */
  closedAfterMs: number | null;
  /** Bytes the client handed to its socket. */
  bytesWritten: number;
}

/**
 * POSTs a body that never ends, in chunks of `chunkBytes`, for as long as the server takes them,
 * reading whatever comes back: `Transfer-Encoding: chunked`, or raw bytes under a huge declared
 * Content-Length when `declaredLength` is given. Settles when the server closes the connection
 * (end, reset or a failed write) or after `giveUpMs`, then destroys its side.
 */
export function sendEndlessBody(
  url: string,
  headers: Record<string, string>,
  giveUpMs: number,
  declaredLength?: number,
  chunkBytes = 64 * 1024,
): Promise<EndlessBodyOutcome> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(target.port), target.hostname);
    const started = Date.now();
    let answer = '';
    let closedAfterMs: number | null = null;
    let settled = false;
    const framing = declaredLength === undefined;
    const chunk = Buffer.concat([
      Buffer.from(framing ? `${chunkBytes.toString(16)}\r\n` : ''),
      Buffer.alloc(chunkBytes, 0x61),
      Buffer.from(framing ? '\r\n' : ''),
    ]);
    const length: Record<string, string> = framing
      ? { 'transfer-encoding': 'chunked' }
      : { 'content-length': String(declaredLength) };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const bytesWritten = socket.bytesWritten;
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      const connection = /\r\nconnection: *([^\r]*)/i.exec(answer);
      const headEnd = answer.indexOf('\r\n\r\n');
      resolve({
        status: status ? Number(status[1]) : null,
        connection: connection ? connection[1].toLowerCase() : null,
        body: headEnd === -1 ? null : answer.slice(headEnd + 4),
        closedAfterMs,
        bytesWritten,
      });
    };
    const closed = () => {
      closedAfterMs ??= Date.now() - started;
      finish();
    };
    const timer = setTimeout(finish, giveUpMs);
    const pump = () => {
      while (!settled && !socket.destroyed && socket.write(chunk));
    };
    socket.on('connect', () => {
      const head = Object.entries({ host: target.host, ...length, ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`POST ${target.pathname} HTTP/1.1\r\n${head}\r\n`);
      pump();
    });
    socket.on('drain', pump);
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('end', closed);
    socket.on('error', closed); // EPIPE / ECONNRESET: the server closed while we were writing
    socket.on('close', closed);
  });
}

/** Counts the bytes a server read from every connection it accepted (closed ones included). */
export class ServerReadCounter {
  private readonly sockets = new Set<Socket>();

  constructor(server: Server) {
    server.on('connection', (s: Socket) => this.sockets.add(s));
  }

  bytesRead(): number {
    let total = 0;
    for (const s of this.sockets) total += s.bytesRead;
    return total;
  }

  /** Whether every accepted connection is closed on the server side. */
  allClosed(): boolean {
    return [...this.sockets].every((s) => s.destroyed);
  }
}

export type DownloadMisbehaviour = 'stall' | 'trickle-then-stall' | 'endless-trickle' | 'complete';

/**
 * A link server that answers 200 with a body that never ends: headers then nothing ('stall'), a few
 * bytes then nothing, or one byte every `trickleMs` forever; or a whole small body ('complete'),
 * with `headers` (e.g. a hostile Content-Disposition). Records when each client went away.
 */
export async function startMisbehavingDownloadServer(
  kind: DownloadMisbehaviour,
  trickleMs = 200,
  headers: Record<string, string> = {},
): Promise<{ url: string; clientGoneAfterMs: number[]; close(): Promise<void> }> {
  const clientGoneAfterMs: number[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const started = Date.now();
    open.add(res);
    res.writeHead(200, { 'content-type': 'application/pdf', ...headers });
    res.flushHeaders();
    if (kind === 'complete') res.end('%PDF-1.7\n%%EOF\n');
    let timer: NodeJS.Timeout | undefined;
    if (kind === 'trickle-then-stall') res.write('%PDF-1.7\n');
    if (kind === 'endless-trickle') timer = setInterval(() => res.write('.'), trickleMs);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
      clientGoneAfterMs.push(Date.now() - started);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/file.pdf`,
    clientGoneAfterMs,
    close: () =>
      new Promise<void>((r) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** One tally row per attack group: inputs tried, handled right, handled wrong. */
export class AttackTally {
  readonly rows = new Map<string, { tried: number; right: number }>();

  count(group: string, right: boolean): boolean {
    const row = this.rows.get(group) ?? { tried: 0, right: 0 };
    row.tried += 1;
    row.right += right ? 1 : 0;
    this.rows.set(group, row);
    return right;
  }

  record(database: string): void {
    for (const [suite, r] of this.rows)
      recordTally({ suite, database, inputsTried: r.tried, refusedRight: r.right, wrong: r.tried - r.right });
  }
}

/** What `fn` settled with (its value or its error), and how many milliseconds it took. */
export async function timed(fn: () => Promise<unknown>): Promise<[unknown, number]> {
  const started = performance.now();
  const out = await fn().catch((e: unknown) => e);
  return [out, performance.now() - started];
}

/** The fields a PartnerLocalValidationError names; undefined for anything else. */
export function fieldsOf(error: unknown): string[] | undefined {
  return error instanceof PartnerLocalValidationError ? error.fieldErrors.map((e) => e.field) : undefined;
}

/** Reads a stream to its end or its error, giving up (and destroying it) after `giveUpMs`. */
export async function readToEnd(
  stream: Readable,
  giveUpMs: number,
): Promise<{ bytes: number; error: unknown; ms: number }> {
  const started = performance.now();
  const giveUp = setTimeout(() => stream.destroy(new Error(`still reading after ${giveUpMs} ms`)), giveUpMs);
  let bytes = 0;
  let error: unknown;
  try {
    for await (const c of stream) bytes += (c as Buffer).length;
  } catch (e) {
    error = e;
  } finally {
    clearTimeout(giveUp);
  }
  return { bytes, error, ms: performance.now() - started };
}
