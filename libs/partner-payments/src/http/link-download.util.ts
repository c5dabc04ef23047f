import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { createPartnerApiError, createPartnerNetworkError } from '../errors/error-factory.util';

/**
 * Fetching a presigned link (evidence §7: RFI documents): a plain GET with no partner credential,
 * never logged (the URL is a credential, so errors name the call, never the link). Every wait has
 * a deadline, the body's included: a link whose body stalls or trickles forever would otherwise
 * hold the caller's stream, its socket and its memory without end.
 */

/** The deadlines of one download, in milliseconds. */
export interface LinkDownloadDeadlines {
  /** Until the answer's head arrives. */
  headTimeoutMs: number;
  /** Longest wait for the next bytes of the body while the reader asks for them. */
  idleTimeoutMs: number;
  /** The whole body, from the answer's head; Infinity for none. */
  bodyTimeoutMs: number;
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

function connectionError(error: unknown) {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return createPartnerNetworkError({
    ...WHERE,
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
      : connectionError(error);
  } finally {
    clearTimeout(head);
  }
  if (!res.ok || res.body === null) {
    const text = await res.text().catch(() => '');
    throw createPartnerApiError({ ...WHERE, status: res.status, body: text });
  }
  const stream = guardBody(res.body as unknown as NodeWebReadableStream<Uint8Array>, deadlines, () =>
    abort.abort(),
  );
  return { stream, headers: res.headers };
}

/**
 * The body as a Node stream that fails with a PartnerTimeoutError when no bytes arrive for
 * idleTimeoutMs while it is read, or when the whole body takes longer than bodyTimeoutMs. The idle
 * clock runs only while the reader waits for the source, so a slow reader is not taken for a
 * stalled link. Ending the stream early (error or destroy) cancels the source and closes the socket.
 */
function guardBody(
  body: NodeWebReadableStream<Uint8Array>,
  deadlines: LinkDownloadDeadlines,
  closeSocket: () => void,
): Readable {
  const reader = body.getReader();
  let idle: NodeJS.Timeout | undefined;
  let whole: NodeJS.Timeout | undefined;
  const stream = new Readable({
    read() {
      idle = setTimeout(
        () => stream.destroy(timeoutError(`no body bytes for ${deadlines.idleTimeoutMs} ms`)),
        Math.min(deadlines.idleTimeoutMs, MAX_TIMER_MS),
      );
      reader.read().then(
        ({ done, value }) => {
          clearTimeout(idle);
          if (stream.destroyed) return;
          if (done) {
            clearTimeout(whole);
            stream.push(null);
          } else stream.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        },
        (error: unknown) => {
          clearTimeout(idle);
          if (!stream.destroyed) stream.destroy(connectionError(error));
        },
      );
    },
    destroy(error, callback) {
      clearTimeout(idle);
      clearTimeout(whole);
      reader.cancel().catch(() => undefined);
      closeSocket();
      callback(error);
    },
  });
  if (deadlines.bodyTimeoutMs < MAX_TIMER_MS) {
    whole = setTimeout(
      () => stream.destroy(timeoutError(`the body did not end within ${deadlines.bodyTimeoutMs} ms`)),
      deadlines.bodyTimeoutMs,
    );
    whole.unref(); // the socket keeps the process alive while the body is owed, not this timer
  }
  return stream;
}
