/**
 * Slow and many clients on a raw socket: what the app's HTTP server does with a request sent a byte
 * at a time, and with connections past its limit. Shared by the config suite and the counted
 * reliability suite.
 */
import { connect, type Socket } from 'node:net';

export interface TrickleResult {
  /** ms from the first byte until the server answered or closed. */
  heldMs: number;
  /** The status line the server answered, if any (Node answers 408 on a request timeout). */
  statusLine: string | null;
  /** Bytes the client had sent when the server let go. */
  sent: number;
}

/**
 * Sends `head` at once (or nothing), then `trickle` one byte every `everyMs` until the server
 * closes the connection or `giveUpMs` passes (then heldMs is giveUpMs: the server never let go).
 */
export function trickle(
  url: string,
  opts: { head: string; trickle: string; everyMs: number; giveUpMs: number },
): Promise<TrickleResult> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let sent = 0;
    let answer = '';
    let at = 0;
    const finish = (heldMs: number) => {
      clearInterval(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ heldMs, statusLine: answer ? answer.split('\r\n')[0] : null, sent });
    };
    socket.on('data', (d) => (answer += String(d)));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Date.now() - started));
    socket.on('connect', () => {
      socket.write(opts.head);
      sent += opts.head.length;
    });
    const timer = setInterval(() => {
      if (at < opts.trickle.length && !socket.destroyed) {
        socket.write(opts.trickle[at++]);
        sent += 1;
      }
    }, opts.everyMs);
    const deadline = setTimeout(() => finish(opts.giveUpMs), opts.giveUpMs);
  });
}

/** Opens `n` idle connections; resolves with the sockets once each connected or was refused. */
export async function openIdle(url: string, n: number): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Socket>((resolve) => {
          const s = connect(Number(port), hostname, () => resolve(s));
          s.on('error', () => resolve(s));
        }),
    ),
  );
}

/** Whether the server closes `socket` within `ms` (a connection past HTTP_MAX_CONNECTIONS is). */
export function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    socket.on('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}
