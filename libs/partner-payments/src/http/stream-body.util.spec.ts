import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { PartnerApiError, PartnerTimeoutError } from '../errors/partner-api.errors';
import { fetchLink, type LinkDownloadDeadlines } from './stream-body.util';
import { startLocalServer, type LocalServer } from './local-server.fixture';

const deadlines = (over: Partial<LinkDownloadDeadlines> = {}): LinkDownloadDeadlines => ({
  headTimeoutMs: 2_000,
  idleTimeoutMs: 300,
  bodyTimeoutMs: 1_500,
  ...over,
});

/** Reads the stream to its end or its error; how long that took. */
async function drain(stream: Readable): Promise<{ bytes: number; error: unknown; ms: number }> {
  const started = performance.now();
  let bytes = 0;
  try {
    for await (const c of stream) bytes += (c as Buffer).length;
    return { bytes, error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { bytes, error, ms: performance.now() - started };
  }
}

describe('fetchLink: every wait of a link download has a deadline', () => {
  let server: LocalServer;
  const open = new Set<ServerResponse>();
  const gone: number[] = [];
  beforeEach(async () => {
    gone.length = 0;
    server = await startLocalServer();
  });
  afterEach(async () => {
    for (const res of open) res.destroy();
    await server.close();
  });

  /** 200 with headers at once, then `body` decides what (if anything) follows. */
  const serve = (body: (res: ServerResponse) => NodeJS.Timeout | void) =>
    server.setHandler((_req, res) => {
      open.add(res);
      const started = Date.now();
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.flushHeaders();
      const timer = body(res);
      res.on('close', () => {
        clearInterval(timer ?? undefined);
        gone.push(Date.now() - started);
      });
    });

  it.each([
    ['headers, then nothing', () => undefined],
    ['a few bytes, then nothing', (res: ServerResponse) => void res.write('%PDF-1.7\n')],
  ])(
    '%s: the stream fails with PartnerTimeoutError after the idle timeout and the socket is closed',
    async (_l, body) => {
      serve(body);
      const { stream } = await fetchLink(`${server.baseUrl}/f.pdf`, deadlines());
      const out = await drain(stream);
      expect(out.error).toBeInstanceOf(PartnerTimeoutError);
      expect(out.error).toMatchObject({
        code: 'etimedout',
        message: expect.stringMatching(/no body bytes for 300 ms/),
      });
      expect(String((out.error as Error).message)).not.toContain(server.baseUrl);
      // Generous: the idle timeout is 300 ms; without it the read never ends.
      expect(out.ms).toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 100));
      expect(gone).toHaveLength(1);
    },
  );

  it('a byte every 100 ms forever: the idle timeout never fires, the body deadline does', async () => {
    serve((res) => setInterval(() => res.write('.'), 100));
    const { stream } = await fetchLink(`${server.baseUrl}/f.pdf`, deadlines());
    const out = await drain(stream);
    expect(out.error).toBeInstanceOf(PartnerTimeoutError);
    expect((out.error as Error).message).toMatch(/the body did not end within 1500 ms/);
    expect(out.bytes).toBeGreaterThan(3);
    expect(out.ms).toBeLessThan(8_000);
  });

  it('a whole body arrives whole, even when the reader starts later than the idle timeout', async () => {
    const bytes = Buffer.alloc(200_000, 7);
    serve((res) => void res.end(bytes));
    const { stream, headers } = await fetchLink(`${server.baseUrl}/f.pdf`, deadlines());
    expect(headers.get('content-type')).toBe('application/pdf');
    await new Promise((r) => setTimeout(r, 900)); // three idle timeouts: the reader is slow, not the link
    const out = await drain(stream);
    expect(out).toMatchObject({ bytes: bytes.length, error: undefined });
  });

  it('no head within headTimeoutMs is a PartnerTimeoutError; a refused link a PartnerApiError', async () => {
    server.setHandler(() => undefined);
    const started = performance.now();
    const err = await fetchLink(`${server.baseUrl}/f.pdf`, deadlines({ headTimeoutMs: 300 })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PartnerTimeoutError);
    expect(performance.now() - started).toBeLessThan(5_000);
    server.setHandler((_req, res) => void res.writeHead(403).end('<Error>expired</Error>'));
    const refused = await fetchLink(`${server.baseUrl}/f.pdf`, deadlines()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PartnerApiError);
    expect(refused).toMatchObject({ status: 403 });
  });
});
