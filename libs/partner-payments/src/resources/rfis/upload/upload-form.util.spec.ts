import busboy from 'busboy';
import FormData from 'form-data';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { samplePdf, samplePng } from './sample-files.fixture';
import { appendUploadParts, uploadPartsReplayable } from './upload-form.util';
import { prepareUploadFiles } from './upload.rules';

interface ParsedFile {
  field: string;
  filename: string;
  mimeType: string;
  bytes: Buffer;
}

/** Serialises the form and parses it back with busboy, as a server would. */
async function roundTrip(form: FormData): Promise<{ body: Buffer; files: ParsedFile[] }> {
  const chunks: Buffer[] = [];
  // form-data is a legacy (non-iterable) stream: pipe it through a PassThrough to read it.
  for await (const c of form.pipe(new PassThrough())) chunks.push(Buffer.from(c as Buffer));
  const body = Buffer.concat(chunks);
  const files: ParsedFile[] = [];
  await new Promise<void>((resolve, reject) => {
    const bb = busboy({ headers: form.getHeaders() as Record<string, string> });
    bb.on('file', (field, stream, info) => {
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () =>
        files.push({
          field,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          bytes: Buffer.concat(parts),
        }),
      );
    });
    bb.on('close', resolve);
    bb.on('error', reject);
    Readable.from([body]).pipe(bb);
  });
  return { body, files };
}

describe('appendUploadParts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'upload-form-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('builds a multipart body with one `files` part per file that a server parses back', async () => {
    const path = join(dir, 'id.pdf');
    await writeFile(path, samplePdf());
    const parts = await prepareUploadFiles([
      { path },
      { buffer: samplePng(), fileName: 'dir/sel"fie.png', contentType: 'image/png' },
    ]);
    const form = appendUploadParts(new FormData(), parts);
    const declaredLength = form.getLengthSync();
    const { body, files } = await roundTrip(form);
    expect(body.length).toBe(declaredLength); // knownLength made the Content-Length exact
    expect(files.map((f) => [f.field, f.filename, f.mimeType])).toEqual([
      ['files', 'id.pdf', 'application/pdf'],
      ['files', "sel'fie.png", 'image/png'],
    ]);
    expect(files[0].bytes.equals(samplePdf())).toBe(true);
    expect(files[1].bytes.equals(samplePng())).toBe(true);
    expect(uploadPartsReplayable(parts)).toBe(true);
  });

  it('builds again from the same parts (a retry) for path and buffer sources only', async () => {
    const path = join(dir, 'again.pdf');
    await writeFile(path, samplePdf());
    const parts = await prepareUploadFiles([{ path }]);
    const first = await roundTrip(appendUploadParts(new FormData(), parts));
    const second = await roundTrip(appendUploadParts(new FormData(), parts));
    expect(second.files[0].bytes.equals(first.files[0].bytes)).toBe(true);

    const once = await prepareUploadFiles([
      { stream: Readable.from([samplePdf()]), fileName: 'a.pdf', contentType: 'application/pdf' },
    ]);
    expect(uploadPartsReplayable(once)).toBe(false);
    expect(
      (await roundTrip(appendUploadParts(new FormData(), once))).files[0].bytes.equals(samplePdf()),
    ).toBe(true);
    expect(() => appendUploadParts(new FormData(), once)).toThrow(/sent only once/);
  });
});
