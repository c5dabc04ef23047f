import { PassThrough } from 'node:stream';

export type RawBodyProbeResult = 'available' | 'missing' | 'unknown';

interface ExpressLayerLike {
  handle?: ((req: unknown, res: unknown, next: (error?: unknown) => void) => void) & { name?: string };
}

/**
 * Boot-time check that JSON bodies keep their raw bytes (spec 6.1.3 verifies the bytes as received):
 * runs the app's Express JSON parser on a two-byte in-memory request and looks for `req.rawBody`,
 * which Nest sets only when the app was created with { rawBody: true }. 'unknown' for any other
 * adapter, no JSON parser (the guard then reads the stream itself), or anything unexpected.
 */
export async function probeRawBody(expressApp: unknown, timeoutMs = 1_000): Promise<RawBodyProbeResult> {
  try {
    const stack = (expressApp as { router?: { stack?: unknown } } | undefined)?.router?.stack;
    if (!Array.isArray(stack)) return 'unknown';
    const layer = (stack as ExpressLayerLike[]).find((l) => l?.handle?.name === 'jsonParser');
    const handle = layer?.handle;
    if (!handle) return 'unknown';
    const req = Object.assign(new PassThrough(), {
      headers: { 'content-type': 'application/json', 'content-length': '2' },
      method: 'POST',
      url: '/',
      rawBody: undefined as unknown,
    });
    const parsed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      handle(req, {}, (error?: unknown) => {
        clearTimeout(timer);
        resolve(error === undefined || error === null);
      });
      req.end('{}');
    });
    if (!parsed) return 'unknown';
    return Buffer.isBuffer(req.rawBody) ? 'available' : 'missing';
  } catch {
    return 'unknown';
  }
}
