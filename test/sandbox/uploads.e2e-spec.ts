import { createHash } from 'node:crypto';
import { sampleFile, type SampleMime, type SeededRfi } from '@partner-payments/testing';
import { startWorld, stopWorld, type World } from './sandbox.fixture';

const V = '2026-06-01';
type Part = { bytes: Buffer; type: string; name: string };
const part = (mime: SampleMime, name: string, type: string = mime): Part => ({
  bytes: sampleFile(mime),
  type,
  name,
});

describe('sandbox: document uploads (spec 4.2, 7.3, 8)', () => {
  let world: World;
  let rfi: SeededRfi;
  let docItem: string;

  const upload = (parts: Part[], itemId = docItem, rfiId = rfi.rfiId, extra?: (f: FormData) => void) => {
    const form = new FormData();
    for (const p of parts)
      form.append('files', new Blob([new Uint8Array(p.bytes)], { type: p.type }), p.name);
    extra?.(form);
    return world.api.call('POST', `/v1/rfis/${rfiId}/items/${itemId}/documents`, {
      rawBody: form,
      version: V,
    });
  };
  const documents = async (itemId = docItem) =>
    (await world.api.call('GET', `/v1/rfis/${rfi.rfiId}`, { version: V })).body.items.find(
      (i: { item_id: string }) => i.item_id === itemId,
    ).documents;

  beforeEach(async () => {
    world = await startWorld();
    const userId = (
      await world.api.call('POST', '/v1/users', {
        body: { type: 'business', business_legal_name: 'Acme', source_of_funds: 'x' },
      })
    ).body.id;
    rfi = await world.sandbox.control.seedRfi({
      userId,
      items: [
        {
          answer_type: 'document',
          answer_spec: { mime_types: ['application/pdf', 'image/png', 'image/jpeg'], max_files: 3 },
        },
        { answer_type: 'document', answer_spec: { max_files: 50 } },
        { answer_type: 'text_short', answer_spec: { max_length: 10 } },
      ],
    });
    docItem = rfi.itemIds[0];
  });
  afterEach(() => stopWorld(world));

  it('201 { item }: answered, documents with sanitised names, mime, size, sha256 checksum; answer_value null', async () => {
    const pdf = part('application/pdf', '../../etc/<proof>.pdf');
    const answer = await upload([pdf, part('image/png', 'scan.png')]);
    expect(answer.status).toBe(201);
    expect(answer.body.item).toMatchObject({
      item_id: docItem,
      status: 'answered',
      answer_value: null,
      updated_at: expect.any(String),
    });
    expect(answer.body.item.documents).toEqual([
      {
        document_id: expect.any(String),
        file_name: '_proof_.pdf',
        mime_type: 'application/pdf',
        size_bytes: pdf.bytes.length,
        checksum: createHash('sha256').update(pdf.bytes).digest('hex'),
        uploaded_at: expect.any(String),
      },
      expect.objectContaining({ file_name: 'scan.png', mime_type: 'image/png' }),
    ]);
    expect(JSON.stringify(answer.body)).not.toMatch(/path|storage/i);
    const doc = answer.body.item.documents[0];
    // evidence §7: the route answers JSON {download_url, expires_at}; the link serves the bytes.
    const linked = await world.api.call(
      'GET',
      `/v1/rfis/${rfi.rfiId}/items/${docItem}/documents/${doc.document_id}`,
      { version: V },
    );
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ download_url: expect.any(String), expires_at: expect.any(String) });
    const ttl = Date.parse(linked.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    const download = await fetch(linked.body.download_url); // no partner credentials
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('filename="_proof_.pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf.bytes)).toBe(true);
    // A presigned link refuses a second auth mechanism, a tampered signature and another document.
    const withBearer = await fetch(linked.body.download_url, {
      headers: { authorization: `Bearer ${world.api.token}` },
    });
    expect(withBearer.status).toBe(400);
    const url = new URL(linked.body.download_url);
    const sig = url.searchParams.get('signature') ?? '';
    url.searchParams.set('signature', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
    expect((await fetch(url)).status).toBe(403);
    const later = new URL(linked.body.download_url);
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 1));
    expect((await fetch(later)).status).toBe(403);
    const missing = await world.api.call(
      'GET',
      `/v1/rfis/${rfi.rfiId}/items/${docItem}/documents/${crypto.randomUUID()}`,
      { version: V },
    );
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('DELETE removes a document (204); the last file of an answered item is refused with 422 (evidence §7)', async () => {
    const first = await upload([part('application/pdf', 'a.pdf'), part('image/png', 'b.png')]);
    expect(first.status).toBe(201);
    const [a, b] = first.body.item.documents;
    const path = (id: string) => `/v1/rfis/${rfi.rfiId}/items/${docItem}/documents/${id}`;
    expect((await world.api.call('DELETE', path(a.document_id), { version: V })).status).toBe(204);
    expect((await documents()).map((d: { document_id: string }) => d.document_id)).toEqual([b.document_id]);
    const last = await world.api.call('DELETE', path(b.document_id.toUpperCase()), { version: V });
    expect(last.status).toBe(422);
    expect(last.body.message).toBe('The last file cannot be removed');
    expect(await documents()).toHaveLength(1);
    expect((await world.api.call('DELETE', path(a.document_id), { version: V })).status).toBe(404);
    // The deleted file's link no longer serves it.
    expect((await world.api.call('GET', path(a.document_id), { version: V })).status).toBe(404);
  });

  it('a UTF-8 file name survives: stored sanitised but not mangled, downloads under that name (2.2)', async () => {
    const answer = await upload([part('application/pdf', 'C:\\Users\\me\\évid 東京.pdf')]);
    expect(answer.status).toBe(201);
    const doc = answer.body.item.documents[0];
    expect(doc.file_name).toBe('évid 東京.pdf');
    const linked = await world.api.call(
      'GET',
      `/v1/rfis/${rfi.rfiId}/items/${docItem}/documents/${doc.document_id}`,
      { version: V },
    );
    const download = await fetch(linked.body.download_url);
    expect(download.status).toBe(200);
    const disposition = download.headers.get('content-disposition') ?? '';
    expect(disposition).toContain('filename="_vid __.pdf"');
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('évid 東京.pdf')}`);
  });

  it('uploads add, never replace; max_files counts the existing files; nothing stored on violation', async () => {
    expect((await upload([part('application/pdf', 'a.pdf')])).status).toBe(201);
    expect(
      (await upload([part('image/jpeg', 'b.jpg'), part('image/png', 'c.png')])).body.item.documents,
    ).toHaveLength(3);
    const over = await upload([part('application/pdf', 'd.pdf')]);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'unprocessable', message: expect.stringContaining('at most 3') });
    expect((await documents()).map((d: { file_name: string }) => d.file_name)).toEqual([
      'a.pdf',
      'b.jpg',
      'c.png',
    ]);
    expect((await world.sandbox.control.counters()).created.documents).toBe(3);
  });

  it.each([
    ['a type outside mime_types', [part('image/webp', 'x.webp')], 'accepted'],
    [
      'bytes that are not the declared type',
      [part('image/png', 'fake.pdf', 'application/pdf')],
      'not the type it was sent as',
    ],
    [
      'text sent as a PDF',
      [{ bytes: Buffer.from('hello'), type: 'application/pdf', name: 'x.pdf' }],
      'not the type',
    ],
    [
      'one bad file among good ones',
      [part('application/pdf', 'ok.pdf'), part('application/pdf', 'bad.png', 'image/png')],
      'bad.png',
    ],
  ])('422 unprocessable for %s, nothing stored', async (_label, parts, message) => {
    const answer = await upload(parts as Part[]);
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('unprocessable');
    expect(answer.body.message).toContain(message);
    expect(await documents()).toEqual([]);
  });

  it('422 for an empty multipart body, a body that is not multipart, and an item that asks for something else', async () => {
    const empty = await upload([], docItem, rfi.rfiId, (f) => f.append('note', 'no files here'));
    expect(empty.status).toBe(422);
    expect(empty.body.message).toContain('empty');
    const json = await world.api.call('POST', `/v1/rfis/${rfi.rfiId}/items/${docItem}/documents`, {
      version: V,
      body: { files: [] },
    });
    expect(json.status).toBe(422);
    const text = await upload([part('application/pdf', 'a.pdf')], rfi.itemIds[2]);
    expect(text.status).toBe(422);
    expect(text.body.message).toContain('text_short');
  });

  it('default accepted types when answer_spec names none: pdf, jpeg, png, heic, webp (not text)', async () => {
    const item = rfi.itemIds[1];
    const ok = await upload([part('image/heic', 'a.heic'), part('image/webp', 'b.webp')], item);
    expect(ok.status).toBe(201);
    expect(ok.body.item.documents.map((d: { mime_type: string }) => d.mime_type)).toEqual([
      'image/heic',
      'image/webp',
    ]);
    expect((await upload([part('text/plain', 'notes.txt')], item)).status).toBe(422);
  });

  it('more than 20 files in one call is 422', async () => {
    const item = rfi.itemIds[1];
    const many = Array.from({ length: 21 }, (_, i) => part('application/pdf', `f${i}.pdf`));
    const answer = await upload(many, item);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('20');
    expect(await documents(item)).toEqual([]);
    expect((await upload(many.slice(0, 20), item)).status).toBe(201);
  });

  it('a file over 30 MB (30,000,001 bytes: MB is decimal) is 422 and nothing is stored; exactly 30,000,000 passes', async () => {
    const item = rfi.itemIds[1];
    const big = {
      bytes: sampleFile('application/pdf', 30_000_001),
      type: 'application/pdf',
      name: 'big.pdf',
    };
    const answer = await upload([part('application/pdf', 'small.pdf'), big], item);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('30 MB');
    expect(await documents(item)).toEqual([]);
    const exact = {
      bytes: sampleFile('application/pdf', 30_000_000),
      type: 'application/pdf',
      name: 'exact.pdf',
    };
    const ok = await upload([exact], item);
    expect(ok.status).toBe(201);
    expect(ok.body.item.documents[0].size_bytes).toBe(30_000_000);
  }, 60000);

  it('400 malformed ids, 404 item not in this RFI, 409 closed RFI, 404 withdrawn', async () => {
    const pdf = [part('application/pdf', 'a.pdf')];
    const malformed = await upload(pdf, 'nope');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_error');
    expect((await upload(pdf, docItem, 'bad-rfi')).status).toBe(400);
    const stranger = await upload(pdf, crypto.randomUUID());
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('not_found');
    await world.sandbox.control.setRfiStatus(rfi.rfiId, 'resolved');
    const closed = await upload(pdf);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('conflict');
    await world.sandbox.control.setRfiStatus(rfi.rfiId, 'withdrawn');
    expect((await upload(pdf)).status).toBe(404);
  });

  it('a re-upload after a return clears review_note and moves updated_at; the request log hashes the multipart body', async () => {
    const first = await upload([part('application/pdf', 'a.pdf')]);
    await world.sandbox.control.returnRfiItem(rfi.rfiId, docItem, 'Blurry, please re-scan.');
    const second = await upload([part('image/png', 'b.png')]);
    expect(second.body.item).toMatchObject({
      review_note: null,
      returned_at: expect.any(String),
      status: 'answered',
    });
    expect(Date.parse(second.body.item.updated_at)).toBeGreaterThan(Date.parse(first.body.item.updated_at));
    const log = await world.sandbox.control.requestLog();
    const uploads = log.filter((l) => l.route === 'POST /v1/rfis/:id/items/:id/documents');
    expect(uploads).toHaveLength(2);
    expect(uploads[0].bodySha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
