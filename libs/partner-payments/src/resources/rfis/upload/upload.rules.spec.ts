import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PartnerFieldError, PartnerLocalValidationError } from '../../../errors/partner.errors';
import { RfiAnswerType, RfiDocument, RfiItem } from '../rfi.model';
import { sampleHeic, sampleJpeg, samplePdf, samplePng, sampleWebp } from './sample-files.fixture';
import { UploadSource } from './upload-source.util';
import { prepareUploadFiles } from './upload.rules';

function docItem(
  answer_spec: Record<string, unknown> = {},
  documents = 0,
  answer_type: RfiAnswerType = 'document',
): RfiItem {
  const doc: RfiDocument = {
    document_id: 'd',
    file_name: 'x.pdf',
    mime_type: 'application/pdf',
    size_bytes: 1,
    checksum: 'c',
    uploaded_at: '',
  };
  return {
    item_id: '00000000-0000-4000-8000-000000000001',
    ordinal: 1,
    prompt: 'upload',
    answer_type,
    answer_spec,
    target_key: null,
    subject: null,
    status: 'pending',
    answer_value: null,
    documents: Array.from({ length: documents }, () => doc),
    review_note: null,
    updated_at: null,
    returned_at: null,
  } as RfiItem;
}

async function errorsOf(p: Promise<unknown>): Promise<PartnerFieldError[]> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PartnerLocalValidationError);
  return (e as PartnerLocalValidationError).fieldErrors;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const buf = (buffer: Buffer, fileName: string, contentType: string): UploadSource => ({
  buffer,
  fileName,
  contentType,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upload-val-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('prepareUploadFiles: accepted uploads', () => {
  it('prepares path, stream and buffer sources into streaming parts', async () => {
    const pdfPath = join(dir, 'statement.pdf');
    await writeFile(pdfPath, samplePdf());
    const parts = await prepareUploadFiles(
      [
        { path: pdfPath },
        { stream: Readable.from([samplePng()]), fileName: '../../etc/pa"ss.png', contentType: 'image/png' },
        buf(sampleJpeg(), 'C:\\photos\\me.jpg', 'image/jpg'),
      ],
      docItem(),
    );
    expect(parts.map((p) => [p.fieldName, p.fileName, p.contentType, p.knownLength, p.replayable])).toEqual([
      ['files', 'statement.pdf', 'application/pdf', samplePdf().length, true],
      ['files', "pa'ss.png", 'image/png', samplePng().length, false],
      ['files', 'me.jpg', 'image/jpeg', sampleJpeg().length, true],
    ]);
    expect((await collect(parts[0].stream())).equals(samplePdf())).toBe(true);
    expect((await collect(parts[1].stream())).equals(samplePng())).toBe(true);
    expect((await collect(parts[2].stream())).equals(sampleJpeg())).toBe(true);
  });

  it('takes the sniffed type for a path given without contentType', async () => {
    const path = join(dir, 'noext');
    await writeFile(path, sampleWebp());
    const [part] = await prepareUploadFiles([{ path }]);
    expect(part.contentType).toBe('image/webp');
    expect(part.sniffedType).toBe('image/webp');
  });

  it('accepts heic and heif as one family, and short names in mime_types', async () => {
    const item = docItem({ mime_types: ['image/heic', 'pdf'] });
    const parts = await prepareUploadFiles(
      [buf(sampleHeic('mif1'), 'a.heif', 'image/heif'), buf(samplePdf(), 'b.pdf', 'application/pdf')],
      item,
    );
    expect(parts.map((p) => p.contentType)).toEqual(['image/heif', 'application/pdf']);
  });

  it('without a known item, checks bytes but not the accepted set', async () => {
    const parts = await prepareUploadFiles([buf(Buffer.from('a,b\n1,2\n'), 'x.csv', 'text/csv')]);
    expect(parts[0].contentType).toBe('text/csv');
  });

  it('accepts exactly 20 files, and max_files counts existing documents', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => buf(samplePdf(), `f${i}.pdf`, 'application/pdf'));
    expect(await prepareUploadFiles(twenty)).toHaveLength(20);
    expect(
      await prepareUploadFiles([buf(samplePdf(), 'a.pdf', 'application/pdf')], docItem({ max_files: 3 }, 2)),
    ).toHaveLength(1);
  });
});

describe('prepareUploadFiles: refused uploads', () => {
  it('refuses no files and more than 20, without opening any file', async () => {
    expect(await errorsOf(prepareUploadFiles([]))).toEqual([
      { field: 'files', message: 'at least one file is required' },
    ]);
    const many = Array.from({ length: 21 }, (_, i) => ({ path: join(dir, `missing-${i}.pdf`) }));
    expect(await errorsOf(prepareUploadFiles(many))).toEqual([
      { field: 'files', message: 'at most 20 files per call (got 21)' },
    ]);
  });

  it('refuses a file that lies about its type (spec 7.3)', async () => {
    const path = join(dir, 'fake.pdf');
    await writeFile(path, samplePng());
    expect(await errorsOf(prepareUploadFiles([{ path, contentType: 'application/pdf' }]))).toEqual([
      {
        field: 'files[0].contentType',
        message: 'declared application/pdf but the bytes are image/png (spec 7.3)',
      },
    ]);
    const text = await errorsOf(
      prepareUploadFiles([buf(Buffer.from('not an image'), 'a.jpg', 'image/jpeg')]),
    );
    expect(text[0].message).toMatch(/do not look like image\/jpeg/);
  });

  it('refuses types outside answer_spec.mime_types, and outside the default set when it names none', async () => {
    const errs = await errorsOf(
      prepareUploadFiles(
        [buf(samplePng(), 'a.png', 'image/png')],
        docItem({ mime_types: ['application/pdf'] }),
      ),
    );
    expect(errs).toEqual([
      {
        field: 'files[0].contentType',
        message: 'image/png is not accepted for this item (accepted: application/pdf)',
      },
    ]);
    const csv = await errorsOf(prepareUploadFiles([buf(Buffer.from('a,b'), 'a.csv', 'text/csv')], docItem()));
    expect(csv[0].message).toBe(
      'text/csv is not accepted for this item (accepted: application/pdf, image/jpeg, image/png, image/heic, image/webp)',
    );
  });

  it('refuses a set that would pass max_files, and a non-document item', async () => {
    const files = [
      buf(samplePdf(), 'a.pdf', 'application/pdf'),
      buf(samplePdf(), 'b.pdf', 'application/pdf'),
    ];
    expect(await errorsOf(prepareUploadFiles(files, docItem({ max_files: 3 }, 2)))).toEqual([
      {
        field: 'files',
        message: 'the item holds 2 file(s) and takes at most 3; 2 more would pass max_files',
      },
    ]);
    expect(await errorsOf(prepareUploadFiles(files, docItem({}, 0, 'text_short')))).toEqual([
      { field: 'item_id', message: 'is a text_short item, not a document item: answer it with PATCH' },
    ]);
  });

  it('collects every problem of every file at once and destroys opened caller streams', async () => {
    const stream = Readable.from([samplePdf()]);
    const errs = await errorsOf(
      prepareUploadFiles(
        [
          { path: join(dir, 'missing.pdf') },
          { stream, fileName: 'ok.pdf', contentType: 'application/pdf' },
          buf(Buffer.alloc(0), 'empty.pdf', 'application/pdf'),
          buf(samplePdf(), 'a.pdf', 'image/png'),
          { buffer: 'nope', fileName: 'x', contentType: 'a/b' } as unknown as UploadSource,
          { path: join(dir, 'x'), contentType: '' },
        ],
        docItem({ mime_types: ['application/pdf'] }),
      ),
    );
    expect(errs.map((e) => e.field)).toEqual([
      'files[0].path',
      'files[2]',
      'files[3].contentType',
      'files[3].contentType',
      'files[4].buffer',
      'files[5].contentType',
    ]);
    expect(errs[0].message).toMatch(/^cannot be read: ENOENT/);
    expect(errs[1].message).toBe('is empty');
    expect(stream.destroyed).toBe(true);
  });
});

describe('prepareUploadFiles: names that would display as something else', () => {
  it('refuses bidi controls and invisible characters in a name, naming the field; nothing is prepared', async () => {
    const pdfPath = join(dir, 'scan\u200b.pdf');
    await writeFile(pdfPath, samplePdf());
    const stream = Readable.from([samplePdf()]);
    const errs = await errorsOf(
      prepareUploadFiles([
        buf(samplePdf(), 'invoice\u202efdp.exe', 'application/pdf'),
        { path: pdfPath },
        { stream, fileName: '\u2066report\u2069.pdf', contentType: 'application/pdf' },
        buf(samplePdf(), '\ufeffid.pdf', 'application/pdf'),
        buf(samplePdf(), 'relevé bancaire (1).pdf', 'application/pdf'),
      ]),
    );
    expect(errs).toEqual([
      {
        field: 'files[0].fileName',
        message: expect.stringMatching(/^holds U\+202E at index 7, an invisible/),
      },
      { field: 'files[1].path', message: expect.stringMatching(/^holds U\+200B at index 4/) },
      { field: 'files[2].fileName', message: expect.stringMatching(/^holds U\+2066 at index 0/) },
      { field: 'files[3].fileName', message: expect.stringMatching(/^holds U\+FEFF at index 0/) },
    ]);
    expect(stream.destroyed).toBe(true);
  });
});
