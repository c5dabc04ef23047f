import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PartnerFieldError, PartnerLocalValidationError } from '../../../errors/partner.errors';
import { samplePdf } from './sample-files.fixture';
import { MAX_UPLOAD_FILE_BYTES } from './upload.constants';
import { prepareUploadFiles } from './upload.rules';

/**
 * Size rules (spec 8: 30 MB per file; provider-facts: 100 MB per call) on sparse files, and memory.
 * A 30 MB file (spec 8) is never held whole in memory by the client. We consume a prepared part
 * with a sink that discards chunks and sample process.memoryUsage().arrayBuffers after forced GCs:
 * streaming keeps a few 64 KiB chunks alive, reading the file whole keeps ~31 MB alive. The same
 * measurement on a Buffer source (which is whole in memory by definition) proves it can see that.
 */

// A gc() for this test without --expose-gc on the jest command line.
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 1024 * 1024;

/** Streams `source` into a sink that drops every chunk; returns bytes seen and the peak retained arrayBuffers. */
async function consumeMeasuring(
  source: Readable,
  baseline: number,
): Promise<{ bytes: number; peak: number }> {
  let bytes = 0;
  let nextSample = 0;
  let peak = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes >= nextSample) {
        nextSample += 2 * MiB;
        gc();
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
      }
      done();
    },
  });
  await pipeline(source, sink);
  return { bytes, peak };
}

async function errorsOf(p: Promise<unknown>): Promise<PartnerFieldError[]> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PartnerLocalValidationError);
  return (e as PartnerLocalValidationError).fieldErrors;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upload-size-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A PDF header followed by a sparse tail: `size` bytes on paper, almost none on disk. */
async function sparsePdf(name: string, size: number): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, samplePdf());
  await truncate(path, size);
  return path;
}

describe('size rules', () => {
  it('accepts exactly 30 MB (30,000,000 bytes: decimal, spec 8)', async () => {
    const path = await sparsePdf('exact.pdf', MAX_UPLOAD_FILE_BYTES);
    expect((await prepareUploadFiles([{ path }]))[0].knownLength).toBe(30_000_000);
  });

  it('refuses a 30,000,001-byte file, naming its size (the MiB reading let it through to the partner)', async () => {
    const path = await sparsePdf('big.pdf', MAX_UPLOAD_FILE_BYTES + 1);
    expect(await errorsOf(prepareUploadFiles([{ path }]))).toEqual([
      { field: 'files[0]', message: 'is 30000001 bytes; at most 30000000 bytes (30 MB) per file (spec 8)' },
    ]);
  });

  it('refuses a stream whose knownLength is over the limit, before reading the rest', async () => {
    let pulled = 0;
    async function* chunks() {
      for (let i = 0; i < 100; i++, pulled++) yield i === 0 ? samplePdf() : Buffer.alloc(64 * 1024);
    }
    const stream = Readable.from(chunks(), { objectMode: false });
    const errs = await errorsOf(
      prepareUploadFiles([
        { stream, fileName: 'a.pdf', contentType: 'application/pdf', knownLength: 40 * 1024 * 1024 },
      ]),
    );
    expect(errs).toEqual([
      { field: 'files[0]', message: 'is 41943040 bytes; at most 30000000 bytes (30 MB) per file (spec 8)' },
    ]);
    expect(pulled).toBeLessThan(50);
    expect(stream.destroyed).toBe(true);
  });

  it('refuses a knownLength that contradicts a stream that already ended', async () => {
    const stream = Readable.from([samplePdf()]);
    expect(
      await errorsOf(
        prepareUploadFiles([{ stream, fileName: 'a.pdf', contentType: 'application/pdf', knownLength: 5 }]),
      ),
    ).toEqual([
      { field: 'files[0].knownLength', message: `is 5 but the stream has ${samplePdf().length} bytes` },
    ]);
  });

  it('refuses more than 100 MB (100,000,000 bytes) per call (provider-facts)', async () => {
    const paths = await Promise.all([0, 1, 2, 3].map((i) => sparsePdf(`q${i}.pdf`, 26 * 1024 * 1024)));
    expect(await errorsOf(prepareUploadFiles(paths.map((path) => ({ path }))))).toEqual([
      { field: 'files', message: '109051904 bytes in all; at most 100000000 per call' },
    ]);
  });

  it('errors the body stream past 30 MB when a stream has no knownLength', async () => {
    async function* chunks() {
      yield samplePdf();
      for (let i = 0; i < 31; i++) yield Buffer.alloc(MiB);
    }
    const stream = Readable.from(chunks(), { objectMode: false });
    const [part] = await prepareUploadFiles([{ stream, fileName: 'a.pdf', contentType: 'application/pdf' }]);
    expect(part.knownLength).toBeUndefined();
    const err = await consumeMeasuring(part.stream(), 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect((err as PartnerLocalValidationError).fieldErrors[0]).toEqual({
      field: 'files[0]',
      message: 'is larger than 30000000 bytes (spec 8: 30 MB per file)',
    });
  });
});

describe('memory: preparing and sending a 30 MiB (~31.5 MB) file', () => {
  let path: string;
  beforeAll(async () => {
    path = await sparsePdf('large.pdf', MAX_UPLOAD_FILE_BYTES);
  });

  it('a path source streams from disk without holding the file', async () => {
    gc();
    const baseline = process.memoryUsage().arrayBuffers;
    const [part] = await prepareUploadFiles([{ path }]);
    expect(part.knownLength).toBe(MAX_UPLOAD_FILE_BYTES);
    const { bytes, peak } = await consumeMeasuring(part.stream(), baseline);
    expect(bytes).toBe(MAX_UPLOAD_FILE_BYTES);
    expect(peak).toBeLessThan(8 * MiB);
  });

  it('control: the same measurement sees a whole-file Buffer source', async () => {
    gc();
    const baseline = process.memoryUsage().arrayBuffers;
    const whole = Buffer.alloc(MAX_UPLOAD_FILE_BYTES);
    samplePdf().copy(whole);
    const [part] = await prepareUploadFiles([
      { buffer: whole, fileName: 'large.pdf', contentType: 'application/pdf' },
    ]);
    const { bytes, peak } = await consumeMeasuring(part.stream(), baseline);
    expect(bytes).toBe(MAX_UPLOAD_FILE_BYTES);
    expect(peak).toBeGreaterThan(24 * MiB);
  });
});
