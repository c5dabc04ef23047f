/** RFIs and document uploads: spec 2.1, 2.2, 4.2, 4.3, 7.2-7.4 and evidence §7 (version 2026-06-01). */
import { randomUUID } from 'node:crypto';
import { sampleFile } from '../../resources/rfis/sample-files.fixtures';
import type { ConformanceProbe, ProbeContext, ProbeRequest } from '../probe.types';
import { t } from '../shape.util';
import { anyError, contract, evidence, flatError, RFI_VERSION } from './probe.shapes';

/** spec 2.2 */
const documentShape = t.object(
  {
    document_id: t.string,
    file_name: t.string,
    mime_type: t.string,
    size_bytes: t.integer,
    checksum: t.string,
    uploaded_at: t.string,
  },
  ['path', 'storage_path'],
);

/** spec 2.1 */
const itemShape = t.object({
  item_id: t.string,
  ordinal: t.integer,
  prompt: t.string,
  answer_type: t.string,
  answer_spec: t.object({}),
  target_key: t.nullable(t.string),
  subject: t.nullable(t.object({ person_id: t.string })),
  status: t.enum('pending', 'answered'),
  answer_value: t.oneOf(t.string, t.number, t.boolean, t.null),
  documents: t.array(documentShape),
  review_note: t.nullable(t.string),
  updated_at: t.nullable(t.string),
  returned_at: t.nullable(t.string),
});

const files = (name: string, mime: string, bytes: Buffer): FormData => {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: mime }), name);
  return form;
};

/** Which RFI a request goes to: the run's open one, or one the partner closed. */
type RfiState = 'open' | 'resolved';
const rfiOf = (ctx: ProbeContext, state: RfiState) => (state === 'open' ? ctx.rfi() : ctx.rfiIn(state));

/** An upload to the document item of the run's RFI in `state`. */
const uploadToDocumentItem =
  (form: () => FormData, state: RfiState = 'open') =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => {
    const rfi = await rfiOf(ctx, state);
    return {
      method: 'POST',
      path: `/v1/rfis/${rfi.rfiId}/items/${rfi.documentItemId}/documents`,
      version: RFI_VERSION,
      form: form(),
    };
  };

/** A PATCH answering the text_short item of the run's RFI in `state`. */
const answerTextItem =
  (answer: string, state: RfiState = 'open') =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => {
    const rfi = await rfiOf(ctx, state);
    return {
      method: 'PATCH',
      path: `/v1/rfis/${rfi.rfiId}/items`,
      version: RFI_VERSION,
      body: { items: [{ item_id: rfi.textItemId, answer_value: answer }] },
    };
  };

export const RFI_PROBES: ConformanceProbe[] = [
  {
    id: 'rfis.list',
    area: 'rfis',
    behaviour: 'GET /v1/rfis (2026-06-01) answers a list of RFIs',
    sources: [evidence('[T1 KiraApiClient]'), evidence('[T1 AnswerRfiService]')],
    writes: false,
    request: { method: 'GET', path: '/v1/rfis?limit=1', version: RFI_VERSION },
    expect: {
      status: 200,
      shape: t.object({ rfis: t.array(t.object({ rfi_id: t.string, status: t.string })) }),
    },
    sandbox:
      'the list envelope `{ rfis, total, limit, offset }` is our reading of weak evidence (code, not a capture)',
  },
  {
    id: 'rfis.older-version',
    area: 'rfis',
    behaviour: 'RFI routes exist only on 2026-06-01: with X-Api-Version 2026-04-14 they are unmatched (403)',
    sources: [evidence('[T1 REVISION-DOCS §2.3]'), contract('§7.5')],
    writes: false,
    request: { method: 'GET', path: '/v1/rfis?limit=1', version: '2026-04-14' },
    expect: { status: 403, shape: flatError('invalid_request') },
  },
  {
    id: 'rfis.bad-bearer',
    area: 'rfis',
    behaviour:
      'An RFI call that cannot be authenticated answers 401 with code invalid_request (not unauthorized)',
    sources: [contract('§7.2, §7.3')],
    writes: false,
    request: { method: 'GET', path: '/v1/rfis?limit=1', version: RFI_VERSION, auth: 'bad-bearer' },
    expect: { status: 401, shape: flatError('invalid_request') },
  },
  {
    id: 'rfis.get.unknown',
    area: 'rfis',
    behaviour: 'GET /v1/rfis/{id} for an unknown (or withdrawn) RFI answers 404 not_found',
    sources: [contract('§3.2, §7.4'), evidence('[T1 REVISION-DOCS §3.2]')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/rfis/${randomUUID()}`, version: RFI_VERSION }),
    expect: { status: 404, shape: flatError('not_found') },
  },
  {
    id: 'rfis.answer.unknown',
    area: 'rfis',
    behaviour: 'PATCH /v1/rfis/{id}/items for an unknown RFI answers 404 not_found',
    sources: [contract('§7.4')],
    writes: false,
    request: () => ({
      method: 'PATCH',
      path: `/v1/rfis/${randomUUID()}/items`,
      version: RFI_VERSION,
      body: { items: [{ item_id: randomUUID(), answer_value: 'x' }] },
    }),
    expect: { status: 404, shape: flatError('not_found') },
  },
  {
    id: 'uploads.malformed-rfi-id',
    area: 'uploads',
    behaviour: 'An upload to a malformed rfi_id answers 400 validation_error',
    sources: [contract('§7.3')],
    writes: false,
    request: () => ({
      method: 'POST',
      path: `/v1/rfis/not-a-uuid/items/${randomUUID()}/documents`,
      version: RFI_VERSION,
      form: files('a.pdf', 'application/pdf', sampleFile('application/pdf')),
    }),
    expect: { status: 400, shape: flatError('validation_error') },
  },
  {
    id: 'uploads.unknown-rfi',
    area: 'uploads',
    behaviour: 'An upload to an unknown RFI answers 404 not_found and stores nothing',
    sources: [contract('§7.3')],
    writes: false,
    request: () => ({
      method: 'POST',
      path: `/v1/rfis/${randomUUID()}/items/${randomUUID()}/documents`,
      version: RFI_VERSION,
      form: files('a.pdf', 'application/pdf', sampleFile('application/pdf')),
    }),
    expect: { status: 404, shape: flatError('not_found') },
  },
  {
    id: 'rfis.answer',
    area: 'rfis',
    behaviour: 'PATCH /v1/rfis/{id}/items answers { items } with the named items answered',
    sources: [contract('§4.3, §3.1')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'an answer cannot be withdrawn; the RFI belongs to the user the run created',
    request: answerTextItem('Conformance'),
    // spec 4.3: the success status is not shown; 200 and 201 both pass.
    expect: { status: [200, 201], shape: t.object({ items: t.array(itemShape) }) },
  },
  {
    id: 'rfis.answer.item-error',
    area: 'rfis',
    behaviour:
      "An answer that breaks the item's answer_spec answers 422 { errors: [{ item_id, message }] }, nothing saved",
    sources: [contract('§4.3.3'), evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is saved (refused)',
    request: answerTextItem('x'.repeat(5000)),
    expect: {
      status: 422,
      shape: t.object({ errors: t.array(t.object({ item_id: t.string, message: t.string })) }),
    },
  },
  {
    id: 'uploads.document',
    area: 'uploads',
    behaviour:
      'Uploading files to a document item answers 201 { item } answered, documents listing the files',
    sources: [contract('§4.2, §2.2')],
    writes: true,
    needs: ['rfi'],
    creates: 'document',
    cleanup: 'left on the item (uploads add, never replace; the last file cannot be removed, evidence §7)',
    request: uploadToDocumentItem(() =>
      files('conformance.pdf', 'application/pdf', sampleFile('application/pdf')),
    ),
    expect: {
      status: 201,
      shape: t.object({
        item: t.object({ item_id: t.string, status: t.enum('answered'), documents: t.array(documentShape) }),
      }),
    },
  },
  {
    id: 'uploads.wrong-type',
    area: 'uploads',
    behaviour: 'A file outside the accepted mime_types answers 422 unprocessable and stores nothing',
    sources: [contract('§7.3, §4.2.2')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is stored (refused)',
    request: uploadToDocumentItem(() => files('notes.txt', 'text/plain', Buffer.from('not a document\n'))),
    expect: { status: 422, shape: flatError('unprocessable') },
  },
  {
    id: 'uploads.empty',
    area: 'uploads',
    behaviour: 'An empty multipart body answers 422 unprocessable',
    sources: [contract('§7.3')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is stored (refused)',
    request: uploadToDocumentItem(() => new FormData()),
    expect: { status: 422, shape: anyError },
  },
];

/** Closed and withdrawn RFIs (spec 3.2, 7.3, 7.4; evidence §7): need hooks, since only the partner closes RFIs. */
RFI_PROBES.push(
  {
    id: 'rfis.answer.closed',
    area: 'rfis',
    behaviour: 'Answering a closed (resolved) RFI answers 409 conflict',
    sources: [contract('§3.2, §7.4'), evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is saved (refused)',
    request: answerTextItem('Late', 'resolved'),
    expect: { status: 409, shape: flatError('conflict') },
  },
  {
    id: 'uploads.closed-rfi',
    area: 'uploads',
    behaviour: 'An upload to a closed (resolved) RFI answers 409 conflict and stores nothing',
    sources: [contract('§7.3')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is stored (refused)',
    request: uploadToDocumentItem(
      () => files('late.pdf', 'application/pdf', sampleFile('application/pdf')),
      'resolved',
    ),
    expect: { status: 409, shape: flatError('conflict') },
  },
  {
    id: 'rfis.withdrawn',
    area: 'rfis',
    behaviour: 'A withdrawn RFI is treated as not found: GET answers 404 not_found',
    sources: [contract('§3.2'), evidence('[T1 REVISION-DOCS §3.2]')],
    writes: true,
    needs: ['rfi'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/rfis/${(await ctx.rfiIn('withdrawn')).rfiId}`,
      version: RFI_VERSION,
    }),
    expect: { status: 404, shape: flatError('not_found') },
  },
);
