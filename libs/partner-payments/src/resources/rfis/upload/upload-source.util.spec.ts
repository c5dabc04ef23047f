import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Stream } from 'node:stream';
import { PartnerLocalValidationError } from '../../../errors/partner.errors';
import { SNIFF_HEAD_BYTES } from './file-sniff.util';
import { samplePdf } from './sample-files.fixture';
import { openUploadSource, StreamGuard, uploadSourceShapeErrors } from './upload-source.util';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const guard = (over: Partial<StreamGuard> = {}): StreamGuard => ({
  field: 'files[0]',
  maxBytes: 1 << 30,
  ...over,
});

/** A caller stream of `n` chunks of `size` bytes that counts how many chunks were pulled from it. */
function countingStream(n: number, size: number): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const head = samplePdf();
  async function* gen() {
    for (let i = 0; i < n; i++) {
      pulled++;
      yield i === 0
        ? Buffer.concat([head, Buffer.alloc(size - head.length, 7)])
        : Buffer.alloc(size, i % 256);
    }
  }
  return { stream: Readable.from(gen(), { objectMode: false }), pulled: () => pulled };
}

describe('uploadSourceShapeErrors', () => {
  it('accepts the three shapes', () => {
    expect(uploadSourceShapeErrors({ path: '/tmp/a.pdf' }, 'f')).toEqual([]);
    expect(
      uploadSourceShapeErrors(
        { stream: Readable.from([]), fileName: 'a', contentType: 'x/y', knownLength: 0 },
        'f',
      ),
    ).toEqual([]);
    expect(
      uploadSourceShapeErrors({ buffer: new Uint8Array(1), fileName: 'a', contentType: 'x/y' }, 'f'),
    ).toEqual([]);
  });

  it('names each bad field', () => {
    expect(uploadSourceShapeErrors('a.pdf', 'files[1]')[0].field).toBe('files[1]');
    expect(uploadSourceShapeErrors({}, 'f')).toEqual([
      { field: 'f', message: 'must have one of path, stream or buffer' },
    ]);
    expect(uploadSourceShapeErrors({ path: '', contentType: 3 }, 'f').map((e) => e.field)).toEqual([
      'f.path',
      'f.contentType',
    ]);
    expect(
      uploadSourceShapeErrors({ stream: 'x', fileName: '', contentType: 'a/b', knownLength: -1 }, 'f').map(
        (e) => e.field,
      ),
    ).toEqual(['f.stream', 'f.fileName', 'f.knownLength']);
    expect(uploadSourceShapeErrors({ buffer: 'abc', fileName: 'a' }, 'f').map((e) => e.field)).toEqual([
      'f.buffer',
      'f.contentType',
    ]);
  });
});

describe('openUploadSource: path', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'upload-src-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads only the head, takes the size from stat, and streams the whole file on every call', async () => {
    const content = Buffer.concat([samplePdf(), Buffer.alloc(100_000, 9)]);
    const path = join(dir, 'big.pdf');
    await writeFile(path, content);
    const o = await openUploadSource({ path });
    expect(o.head.length).toBe(SNIFF_HEAD_BYTES);
    expect(o.size).toBe(content.length);
    expect(o.fileName).toBe('big.pdf');
    expect(o.replayable).toBe(true);
    expect((await collect(o.createStream(guard({ expectedBytes: o.size })))).equals(content)).toBe(true);
    expect((await collect(o.createStream(guard({ expectedBytes: o.size })))).equals(content)).toBe(true);
  });

  it('errors the stream when the file changed size after it was checked', async () => {
    const path = join(dir, 'grows.pdf');
    await writeFile(path, samplePdf());
    const o = await openUploadSource({ path });
    await writeFile(path, Buffer.concat([samplePdf(), Buffer.from('more')]));
    await expect(collect(o.createStream(guard({ expectedBytes: o.size })))).rejects.toThrow(
      /more bytes than its known length/,
    );
    await writeFile(path, samplePdf().subarray(0, 10));
    await expect(collect(o.createStream(guard({ expectedBytes: o.size })))).rejects.toThrow(
      /ended after 10 bytes/,
    );
  });

  it('rejects a missing file and a directory', async () => {
    await expect(openUploadSource({ path: join(dir, 'nope.pdf') })).rejects.toThrow(/ENOENT/);
    await expect(openUploadSource({ path: dir })).rejects.toThrow(/not a regular file/);
  });
});

describe('openUploadSource: caller stream', () => {
  it('pulls only the head, then replays it and continues the rest', async () => {
    const { stream, pulled } = countingStream(200, 1024);
    const o = await openUploadSource({ stream, fileName: 'a.pdf', contentType: 'application/pdf' });
    expect(o.head.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pulled()).toBeLessThan(40); // head (5 chunks) + stream buffering, not 200
    expect(o.size).toBeUndefined();
    expect(o.replayable).toBe(false);
    const body = await collect(o.createStream(guard()));
    expect(body.length).toBe(200 * 1024);
    expect(body[1024 * 150]).toBe(150);
    expect(() => o.createStream(guard())).toThrow(/sent only once/);
  });

  it('knows the size of a stream that ended within the head, else uses knownLength', async () => {
    const short = await openUploadSource({
      stream: Readable.from([samplePdf()]),
      fileName: 'a',
      contentType: 'application/pdf',
    });
    expect(short.size).toBe(samplePdf().length);
    const { stream } = countingStream(10, 1024);
    const known = await openUploadSource({
      stream,
      fileName: 'a',
      contentType: 'application/pdf',
      knownLength: 10_240,
    });
    expect(known.size).toBe(10_240);
  });

  it('errors while streaming past maxBytes when the size is unknown up front', async () => {
    const { stream } = countingStream(50, 1024);
    const o = await openUploadSource({ stream, fileName: 'a', contentType: 'application/pdf' });
    const err = await collect(o.createStream(guard({ maxBytes: 20 * 1024 }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect((err as PartnerLocalValidationError).fieldErrors).toEqual([
      { field: 'files[0]', message: 'is larger than 20480 bytes (spec 8: 30 MB per file)' },
    ]);
    expect(stream.destroyed).toBe(true);
  });

  it('charges unknown-length streams to the shared per-call budget', async () => {
    const budget = { remaining: 15 * 1024 };
    const a = await openUploadSource({
      stream: countingStream(10, 1024).stream,
      fileName: 'a',
      contentType: 'x/y',
    });
    const b = await openUploadSource({
      stream: countingStream(10, 1024).stream,
      fileName: 'b',
      contentType: 'x/y',
    });
    expect((await collect(a.createStream(guard({ budget })))).length).toBe(10 * 1024);
    const err = await collect(b.createStream(guard({ budget, field: 'files[1]' }))).catch((e: unknown) => e);
    expect((err as PartnerLocalValidationError).fieldErrors[0].field).toBe('files');
  });

  it('release() destroys a caller stream that was never sent', async () => {
    const { stream } = countingStream(10, 1024);
    const o = await openUploadSource({ stream, fileName: 'a', contentType: 'application/pdf' });
    o.release();
    expect(stream.destroyed).toBe(true);
  });

  it('rejects object chunks and destroys the stream', async () => {
    const stream = Readable.from([{ not: 'bytes' }]);
    await expect(openUploadSource({ stream, fileName: 'a', contentType: 'x/y' })).rejects.toThrow(
      /Buffer or string/,
    );
    expect(stream.destroyed).toBe(true);
  });

  it('accepts a legacy (non-iterable) stream by wrapping it', async () => {
    const legacy = new Stream() as Stream & { readable: boolean; pause(): void; resume(): void };
    legacy.readable = true;
    legacy.pause = () => undefined;
    legacy.resume = () => undefined;
    const opening = openUploadSource({
      stream: legacy as unknown as NodeJS.ReadableStream,
      fileName: 'old.pdf',
      contentType: 'application/pdf',
    });
    setImmediate(() => {
      legacy.emit('data', samplePdf());
      legacy.emit('end');
    });
    const o = await opening;
    expect(o.size).toBe(samplePdf().length);
    expect((await collect(o.createStream(guard()))).equals(samplePdf())).toBe(true);
  });

  it('rejects when the caller stream fails while its head is read', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(openUploadSource({ stream: failing, fileName: 'a', contentType: 'x/y' })).rejects.toThrow(
      'disk gone',
    );
  });
});

describe('openUploadSource: buffer', () => {
  it('wraps a Uint8Array view without copying its neighbours', async () => {
    const backing = Buffer.concat([Buffer.from('xx'), samplePdf(), Buffer.from('yy')]);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, samplePdf().length);
    const o = await openUploadSource({ buffer: view, fileName: 'a.pdf', contentType: 'application/pdf' });
    expect(o.size).toBe(samplePdf().length);
    expect((await collect(o.createStream(guard()))).equals(samplePdf())).toBe(true);
    expect((await collect(o.createStream(guard()))).length).toBe(samplePdf().length);
  });
});
