import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { createPartnerApiError, createPartnerNetworkError } from '../errors/error-factory.util';

/**
 * Streamed bodies with deadlines: a presigned link (evidence §7: RFI documents) fetched with a plain
 * GET and no partner credential, never logged (the URL is a credential, so errors name the call,
 * never the link), and the partner's own streamed answers. Every wait has a deadline, the body's
 * included: a body that stalls or trickles forever would otherwise hold the caller's stream and
 * its socket without end.
 */

/** The deadlines of one link download, in milliseconds. */
export interface LinkDownloadDeadlines extends BodyDeadlines {
  /** Until the answer's head arrives. */
  headTimeoutMs: number;
}

export interface LinkDownload {
  stream: Readable;
  headers: Headers;
}

const WHERE = { method: 'GET', path: '(document download link)' } as const;
/** Node's timers overflow past 2^31 - 1 ms and fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

const timeoutError = (message: string) =>
  createPartnerNetworkError({ ...WHERE, timedOut: true, message, errorCode: 'ETIMEDOUT' });

function connectionError(error: unknown, where: { method: string; path: string }) {
  const cause = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = cause?.cause?.code ?? cause?.code;
  return createPartnerNetworkError({
    ...where,
    timedOut: false,
    message: 'connection failed',
    errorCode: typeof code === 'string' ? code : undefined,
  });
}

/** GETs `url`; a non-2xx answer is a PartnerApiError with the store's status, read whole (it is small). */
export async function fetchLink(url: string, deadlines: LinkDownloadDeadlines): Promise<LinkDownload> {
  const abort = new AbortController();
  const head = setTimeout(() => abort.abort(), Math.min(deadlines.headTimeoutMs, MAX_TIMER_MS));
  let res: Response;
  try {
    res = await fetch(url, { method: 'GET', redirect: 'follow', signal: abort.signal });
  } catch (error) {
    throw abort.signal.aborted
      ? timeoutError(`no answer within ${deadlines.headTimeoutMs} ms`)
      : connectionError(error, WHERE);
  } finally {
    clearTimeout(head);
  }
  if (!res.ok || res.body === null) {
    const text = await res.text().catch(() => '');
    throw createPartnerApiError({ ...WHERE, status: res.status, body: text });
  }
  const stream = guardStreamBody(
    res.body as unknown as NodeWebReadableStream<Uint8Array>,
    deadlines,
    WHERE,
    () => abort.abort(),
  );
  return { stream, headers: res.headers };
}

/** The whole body's default deadline: the ten minutes a document link lives [T3r DRIFT-24]. */
export const DEFAULT_STREAM_BODY_TIMEOUT_MS = 600_000;

/** The deadlines of a streamed body, in milliseconds. */
export interface BodyDeadlines {
  /** Longest wait for the next bytes while the reader asks for them. */
  idleTimeoutMs: number;
  /** The whole body, from the answer's head; Infinity for none. */
  bodyTimeoutMs: number;
}

/**
 * A streamed body as a Node stream that fails with a PartnerTimeoutError (naming `where`) when no
 * bytes arrive for idleTimeoutMs while it is read, or when the whole body takes longer than
 * bodyTimeoutMs. The idle clock runs only while the reader waits for the source, so a slow reader
 * is not taken for a stalled sender. Ending the stream early (error or destroy) ends the source and
 * calls `closeSocket`.
 */
export function guardStreamBody(
  source: AsyncIterable<unknown>,
  deadlines: BodyDeadlines,
  where: { method: string; path: string },
  closeSocket: () => void,
): Readable {
  const iterator = source[Symbol.asyncIterator]();
  const timedOut = (message: string) =>
    createPartnerNetworkError({ ...where, timedOut: true, message, errorCode: 'ETIMEDOUT' });
  let idle: NodeJS.Timeout | undefined;
  let whole: NodeJS.Timeout | undefined;
  const stream = new Readable({
    read() {
      idle = setTimeout(
        () => stream.destroy(timedOut(`no body bytes for ${deadlines.idleTimeoutMs} ms`)),
        Math.min(deadlines.idleTimeoutMs, MAX_TIMER_MS),
      );
      iterator.next().then(
        ({ done, value }) => {
          clearTimeout(idle);
          if (stream.destroyed) return;
          if (done) {
            clearTimeout(whole);
            stream.push(null);
          } else stream.push(toBuffer(value));
        },
        (error: unknown) => {
          clearTimeout(idle);
          if (!stream.destroyed) stream.destroy(connectionError(error, where));
        },
      );
    },
    destroy(error, callback) {
      clearTimeout(idle);
      clearTimeout(whole);
      iterator.return?.().catch(() => undefined);
      closeSocket();
      callback(error);
    },
  });
  if (deadlines.bodyTimeoutMs < MAX_TIMER_MS) {
    whole = setTimeout(
      () => stream.destroy(timedOut(`the body did not end within ${deadlines.bodyTimeoutMs} ms`)),
      deadlines.bodyTimeoutMs,
    );
    whole.unref(); // the socket keeps the process alive while the body is owed, not this timer
  }
  return stream;
}

/**
 * A streamed 2xx answer of the partner, read by the caller after the attempt ended (axios's own
 * timeout no longer watches a response it has handed over): no bytes for timeoutMs, or no end
 * within bodyTimeoutMs, fails it with a PartnerTimeoutError and closes the socket.
 */
export function guardResponseStream(
  body: Readable,
  req: { method: string; path: string; timeoutMs: number; bodyTimeoutMs?: number },
): Readable {
  const bodyTimeoutMs = req.bodyTimeoutMs ?? DEFAULT_STREAM_BODY_TIMEOUT_MS;
  return guardStreamBody(body, { idleTimeoutMs: req.timeoutMs, bodyTimeoutMs }, req, () => body.destroy());
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk));
}
