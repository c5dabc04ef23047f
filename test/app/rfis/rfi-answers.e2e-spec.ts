/**
 * Answering RFIs through the app (apps/reference-app/src/rfis): answers and a streamed upload reach
 * the sandbox; the partner's per-item refusals and a closed RFI's 409 are passed on; bad input is
 * refused with a 400 naming the field before anything is sent (the sandbox's request log shows no
 * call). On a SQLite file and on PostgreSQL.
 */
import { PartnerRfisService } from '@partner-payments/nestjs';
import type { PartnerSandbox, SeededRfi } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { appRequest, eventually } from '../../setup/app.fixture';
import { DATABASE_KINDS } from '../../setup/test-database.fixture';
import { partnerRfiCalls, PDF_BYTES, seedProjected, useRfiApp, type RfiAppWorld } from './rfi-app.fixture';

jest.setTimeout(60_000);

describe.each(DATABASE_KINDS)('answering RFIs through the app on %s', (kind) => {
  let world: RfiAppWorld;
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  useRfiApp(kind, `rfians_${kind}`, (w) => ({ sandbox, running } = world = w));

  const http = () => appRequest(running);
  const items = (rfiId: string) => `/rfis/${rfiId}/items`;
  const upload = (
    seeded: SeededRfi,
    file: Buffer,
    name: string,
    type: string,
    itemId = seeded.itemIdsByType.document!,
  ) =>
    http()
      .post(`${items(seeded.rfiId)}/${itemId}/documents`)
      .attach('files', file, { filename: name, contentType: type });
  /** The item as the partner holds it (read with the app's own client, not through the app). */
  const partnerItem = async (seeded: SeededRfi, itemId: string) =>
    (await running.app.get(PartnerRfisService).get(seeded.rfiId)).items.find((i) => i.item_id === itemId);

  it('refuses bad answers and files with a 400 naming the field, sending nothing to the partner', async () => {
    const seeded = await seedProjected(world);
    const before = await partnerRfiCalls(sandbox);
    const { text_short: text, number, choice, document } = seeded.itemIdsByType;
    const bad = await http()
      .patch(items(seeded.rfiId))
      .send({
        items: [
          { item_id: text, answer_value: 'x'.repeat(51) },
          { item_id: number, answer_value: 'twelve' },
          { item_id: choice, answer_value: 'lottery' },
          { item_id: document, answer_value: 'a file' },
        ],
      })
      .expect(400);
    expect(bad.body.message).toEqual([
      expect.stringMatching(/^items\[0\]\.answer_value must be at most 50 characters/),
      expect.stringMatching(/^items\[1\]\.answer_value must be a number/),
      expect.stringMatching(/^items\[2\]\.answer_value must be one of/),
      expect.stringMatching(/^items\[3\]\.item_id is a document item/),
    ]);
    await http().patch(items(seeded.rfiId)).send({ items: [] }).expect(400);
    await http()
      .patch(items(seeded.rfiId))
      .send({ items: [{ item_id: text, answer_value: 'ok' }], extra: 1 })
      .expect(400);
    await http()
      .patch(items('nope'))
      .send({ items: [{ item_id: text, answer_value: 'ok' }] })
      .expect(400, {
        statusCode: 400,
        message: ['rfi_id must be a UUID'],
        error: 'Bad Request',
      });
    // A type the item does not accept (answer_spec.mime_types: pdf, jpeg, png).
    const wrongType = await upload(seeded, Buffer.from('plain words'), 'notes.txt', 'text/plain').expect(400);
    expect(JSON.stringify(wrongType.body.message)).toMatch(/files\[0\]/);
    // Bytes that are not the type they are sent as.
    const fake = await upload(seeded, Buffer.from('not a pdf at all'), 'fake.pdf', 'application/pdf').expect(
      400,
    );
    expect(JSON.stringify(fake.body.message)).toMatch(/files\[0\]/);
    // A text item takes no files.
    const notDoc = await upload(seeded, PDF_BYTES, 'a.pdf', 'application/pdf', text).expect(400);
    expect(notDoc.body.message).toEqual([expect.stringMatching(/^item_id is a text_short item/)]);
    // No file, only a field that is not `files`.
    await http()
      .post(`${items(seeded.rfiId)}/${document}/documents`)
      .field('note', 'x')
      .expect(400);
    // Over 30 MB by its Content-Length: refused before a byte is read.
    await http()
      .post(`${items(seeded.rfiId)}/${document}/documents`)
      .set('content-type', 'multipart/form-data; boundary=x')
      .set('content-length', String(30_000_001))
      .send('')
      .catch((e: { status?: number; response?: { status: number } }) => e.response ?? e)
      .then((res: { status?: number }) => expect(res.status).toBe(413));
    // Not one of these reached the partner.
    expect(await partnerRfiCalls(sandbox)).toBe(before);

    // A second file is seen only after the first one's bytes: the partner's request, not yet
    // ended, is aborted, and the partner stores nothing (spec 4.2 rule 2).
    const two = await http()
      .post(`${items(seeded.rfiId)}/${document}/documents`)
      .attach('files', PDF_BYTES, { filename: 'a.pdf', contentType: 'application/pdf' })
      .attach('files', PDF_BYTES, { filename: 'b.pdf', contentType: 'application/pdf' })
      .expect(400);
    expect(two.body.message).toEqual([expect.stringMatching(/^files: one file per request/)]);
    expect((await partnerItem(seeded, document!))?.documents).toEqual([]);
  });

  it('answers a text and a choice item in one call: the partner records them, the app its items', async () => {
    const seeded = await seedProjected(world);
    const { text_short: text, choice } = seeded.itemIdsByType;
    const res = await http()
      .patch(items(seeded.rfiId))
      .send({
        items: [
          { item_id: text, answer_value: 'Acme Trading' },
          { item_id: choice, answer_value: 'savings' },
        ],
      })
      .expect(200);
    expect(res.body.items.map((i: { item_id: string; status: string }) => [i.item_id, i.status])).toEqual([
      [text, 'answered'],
      [choice, 'answered'],
    ]);
    expect(await partnerItem(seeded, text!)).toMatchObject({
      status: 'answered',
      answer_value: 'Acme Trading',
    });
    expect(await partnerItem(seeded, choice!)).toMatchObject({ status: 'answered', answer_value: 'savings' });
    const held = (await http().get(`/rfis/${seeded.rfiId}`).expect(200)).body;
    const stored = held.items.find((i: { item_id: string }) => i.item_id === text);
    expect(stored).toMatchObject({ status: 'answered' });
    expect(stored.updated_at).not.toBeNull();
    expect(JSON.stringify(held)).not.toContain('Acme Trading'); // the answer stays at the partner
  });

  it("passes the partner's per-item errors on beside their items, nothing saved", async () => {
    const seeded = await seedProjected(world);
    const { text_short: text } = seeded.itemIdsByType;
    // An item the app does not know is only shape-checked here (spec 4.3 rule 3: the server decides).
    const stranger = '0b5c2f0e-4a1d-4f5e-9a3b-7c6d5e4f3a2b';
    const res = await http()
      .patch(items(seeded.rfiId))
      .send({
        items: [
          { item_id: text, answer_value: 'Fine' },
          { item_id: stranger, answer_value: 'x' },
        ],
      })
      .expect(422);
    expect(res.body).toMatchObject({
      statusCode: 422,
      error: 'PartnerRefused',
      item_errors: [{ item_id: stranger, message: expect.stringMatching(/does not belong/) }],
    });
    expect(await partnerItem(seeded, text!)).toMatchObject({ status: 'pending', answer_value: null });
  });

  it('streams an uploaded PDF to the partner, keeps its metadata only, and hands out its download link', async () => {
    const seeded = await seedProjected(world);
    const document = seeded.itemIdsByType.document!;
    const res = await upload(seeded, PDF_BYTES, 'proof of address.pdf', 'application/pdf').expect(201);
    expect(res.body.item).toMatchObject({ item_id: document, status: 'answered' });
    const atPartner = await partnerItem(seeded, document);
    expect(atPartner?.documents).toEqual([
      expect.objectContaining({ mime_type: 'application/pdf', size_bytes: PDF_BYTES.length }),
    ]);
    const held = (await http().get(`/rfis/${seeded.rfiId}`).expect(200)).body;
    const stored = held.items.find((i: { item_id: string }) => i.item_id === document);
    expect(stored.documents).toEqual([
      expect.objectContaining({
        document_id: atPartner!.documents[0].document_id,
        size_bytes: PDF_BYTES.length,
      }),
    ]);
    const link = await http()
      .get(`${items(seeded.rfiId)}/${document}/documents/${atPartner!.documents[0].document_id}/link`)
      .expect(200);
    expect(link.headers['cache-control']).toBe('no-store');
    expect(link.body.download_url).toMatch(/^https?:\/\//);
    const file = await fetch(link.body.download_url);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PDF_BYTES);
  });

  it("refuses a file past the item's max_files before sending it (the files it already holds counted)", async () => {
    const seeded = await seedProjected(world, {
      items: [{ answer_type: 'document', answer_spec: { mime_types: ['application/pdf'], max_files: 1 } }],
    });
    await upload(seeded, PDF_BYTES, 'first.pdf', 'application/pdf').expect(201);
    // After an upload the app reads the RFI again in the background (its status may move).
    await eventually(async () => {
      const log = (await sandbox.control.requestLog()).filter((l) => l.route.includes('/v1/rfis'));
      return log[log.length - 1]?.route === 'GET /v1/rfis/:id' ? true : undefined;
    });
    const before = await partnerRfiCalls(sandbox);
    const second = await upload(seeded, PDF_BYTES, 'second.pdf', 'application/pdf').expect(400);
    expect(JSON.stringify(second.body.message)).toMatch(/max_files|at most 1/);
    expect(await partnerRfiCalls(sandbox)).toBe(before);
    expect((await partnerItem(seeded, seeded.itemIds[0]))?.documents).toHaveLength(1);
  });

  it("refuses answers and files to a closed RFI with the partner's 409 passed on", async () => {
    const seeded = await seedProjected(world);
    await sandbox.control.setRfiStatus(seeded.rfiId, 'not_resolved', 'expired');
    const answer = await http()
      .patch(items(seeded.rfiId))
      .send({ items: [{ item_id: seeded.itemIdsByType.text_short, answer_value: 'Late' }] })
      .expect(409);
    expect(answer.body).toMatchObject({ statusCode: 409, error: 'RfiClosed' });
    expect(answer.body.message).toMatch(/closed and no longer accepts answers/);
    const file = await upload(seeded, PDF_BYTES, 'late.pdf', 'application/pdf').expect(409);
    expect(file.body).toMatchObject({ statusCode: 409, error: 'RfiClosed' });
    // rfi.not_resolved arrived (evidence §9), and the app read the RFI again after the 409.
    await eventually(async () => {
      const rfi = (await http().get(`/rfis/${seeded.rfiId}`).expect(200)).body;
      return rfi.status === 'not_resolved' && rfi.resolution_reason === 'expired' ? true : undefined;
    });
  });
});
