import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalMimeType,
  checkDeclaredType,
  hasKnownSignature,
  isMimeTypeAccepted,
  mimeTypesMatch,
  sniffFileType,
} from './file-sniff.util';
import { sampleHeic, sampleJpeg, samplePdf, samplePng, sampleWebp } from './sample-files.fixture';

describe('sniffFileType on real files written to disk', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sniff-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['doc.pdf', 'application/pdf', samplePdf()],
    ['img.png', 'image/png', samplePng()],
    ['img.jpg', 'image/jpeg', sampleJpeg()],
    ['img.webp', 'image/webp', sampleWebp()],
    ['img.heic', 'image/heic', sampleHeic('heic')],
    ['img.heif', 'image/heif', sampleHeic('mif1')],
  ])('%s is sniffed as %s', async (name, mime, bytes) => {
    await writeFile(join(dir, name), bytes);
    const head = await readFile(join(dir, name));
    expect((await sniffFileType(head))?.mime).toBe(mime);
  });

  it('recognises nothing in text, empty or one-byte input', async () => {
    expect(await sniffFileType(Buffer.from('just some text, not a document'))).toBeUndefined();
    expect(await sniffFileType(Buffer.alloc(0))).toBeUndefined();
    expect(await sniffFileType(Buffer.from([0xff]))).toBeUndefined();
  });

  it('works on a truncated head of a larger file', async () => {
    const big = Buffer.concat([samplePng().subarray(0, 33), Buffer.alloc(10_000, 1)]);
    expect((await sniffFileType(big.subarray(0, 4100)))?.mime).toBe('image/png');
  });
});

describe('type names', () => {
  it('canonicalises aliases, parameters, case and short names', () => {
    expect(canonicalMimeType('Image/JPG')).toBe('image/jpeg');
    expect(canonicalMimeType('image/pjpeg')).toBe('image/jpeg');
    expect(canonicalMimeType('application/pdf; charset=binary')).toBe('application/pdf');
    expect(canonicalMimeType('pdf')).toBe('application/pdf');
    expect(canonicalMimeType('.webp')).toBe('image/webp');
    expect(canonicalMimeType('image/heif')).toBe('image/heif');
  });

  it('matches jpeg aliases and heic/heif variants, not different formats', () => {
    expect(mimeTypesMatch('image/jpg', 'image/jpeg')).toBe(true);
    expect(mimeTypesMatch('image/heic', 'image/heif')).toBe(true);
    expect(mimeTypesMatch('image/heif', 'image/heic-sequence')).toBe(true);
    expect(mimeTypesMatch('image/png', 'image/apng')).toBe(true);
    expect(mimeTypesMatch('image/png', 'image/jpeg')).toBe(false);
    expect(mimeTypesMatch('application/pdf', 'image/webp')).toBe(false);
  });

  it('checks accepted lists of mime types or short names', () => {
    expect(isMimeTypeAccepted('image/jpg', ['application/pdf', 'image/jpeg'])).toBe(true);
    expect(isMimeTypeAccepted('image/heif', ['pdf', 'heic'])).toBe(true);
    expect(isMimeTypeAccepted('image/png', ['pdf', 'jpeg'])).toBe(false);
  });

  it('knows which types have a signature', () => {
    expect(hasKnownSignature('application/pdf')).toBe(true);
    expect(hasKnownSignature('image/jpg')).toBe(true);
    expect(hasKnownSignature('text/plain')).toBe(false);
  });
});

describe('checkDeclaredType', () => {
  it('accepts honest declarations, including aliases', async () => {
    expect(await checkDeclaredType('application/pdf', samplePdf())).toMatchObject({
      matches: true,
      declared: 'application/pdf',
    });
    expect(await checkDeclaredType('image/jpg', sampleJpeg())).toMatchObject({
      matches: true,
      declared: 'image/jpeg',
    });
    expect(await checkDeclaredType('image/heif', sampleHeic('heic'))).toMatchObject({ matches: true });
  });

  it('flags a png that claims to be a pdf', async () => {
    const res = await checkDeclaredType('application/pdf', samplePng());
    expect(res.matches).toBe(false);
    expect(res.sniffed?.mime).toBe('image/png');
    expect(res.reason).toBe('declared application/pdf but the bytes are image/png');
  });

  it('flags text that claims to be a pdf, passes text declared as text', async () => {
    const text = Buffer.from('hello, plain text');
    expect((await checkDeclaredType('application/pdf', text)).reason).toBe(
      'declared application/pdf but the bytes do not look like application/pdf',
    );
    expect((await checkDeclaredType('text/plain', text)).matches).toBe(true);
    expect((await checkDeclaredType('text/plain', samplePdf())).matches).toBe(false);
  });
});
