/**
 * What the transport makes of axios's answer or failure: plain headers, the request id, a small
 * error body read from a stream, and a failure's cause with nothing secret on it.
 */

const REQUEST_ID_HEADERS = [
  'x-request-id',
  'request-id',
  'x-correlation-id',
  'x-amzn-requestid',
  'x-trace-id',
];

export function pickRequestId(headers: Record<string, string>): string | null {
  for (const h of REQUEST_ID_HEADERS) if (headers[h]) return headers[h];
  return null;
}

/** axios's response headers as lower-case name → string (several values joined by ', '). */
export function plainHeaders(received: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  const from = (received ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(from)) {
    const v = from[k];
    if (v !== undefined && v !== null) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return headers;
}

/** Reads at most 64 KiB of a stream as text (then JSON when it parses); the rest is discarded. */
export async function readSmallBody(body: unknown): Promise<unknown> {
  if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (size < 65_536) chunks.push(b.subarray(0, 65_536 - size));
    size += b.length;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A copy of a transport failure that is safe to log: name, message, code, errno, syscall, stack and
 * the same of its causes. An axios error carries its request config (x-api-key and the
 * Authorization header) and the socket's request object; handing it on as an error's `cause` would
 * let `console.error(err)` or a logger's inspect print the bearer token and api key, and logs
 * never carry credentials.
 */
export function toSafeNetworkCause(err: unknown, depth = 0): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  const safe = new Error(err.message);
  safe.name = err.name;
  safe.stack = err.stack;
  const src = err as Error & { code?: unknown; errno?: unknown; syscall?: unknown; cause?: unknown };
  const extra: Record<string, unknown> = {};
  for (const key of ['code', 'errno', 'syscall'] as const) {
    if (typeof src[key] === 'string' || typeof src[key] === 'number') extra[key] = src[key];
  }
  Object.assign(safe, extra);
  if (src.cause !== undefined && depth < 3) {
    Object.defineProperty(safe, 'cause', {
      value: toSafeNetworkCause(src.cause, depth + 1),
      enumerable: false,
      configurable: true,
      writable: true,
    });
  }
  return safe;
}
