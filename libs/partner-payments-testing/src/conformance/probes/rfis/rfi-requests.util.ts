/** Requests and shapes shared by the RFI and upload probes (spec 2.1, 2.2, 4.2, 4.3; version 2026-06-01, evidence §7). */
import type { ProbeContext, ProbeRequest } from '../../probe.types';
import { t } from '../../shape.util';
import { RFI_VERSION } from '../probe-shapes.util';

/** spec 2.2 */
export const documentShape = t.object(
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
export const itemShape = t.object({
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

export const files = (name: string, mime: string, bytes: Buffer): FormData => {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: mime }), name);
  return form;
};

/** Which RFI a request goes to: the run's open one, or one the partner closed. */
type RfiState = 'open' | 'resolved';
const rfiOf = (ctx: ProbeContext, state: RfiState) => (state === 'open' ? ctx.rfi() : ctx.rfiIn(state));

/** spec 4.2: an upload of `form` (field `files`) to an item. */
export const uploadTo = (rfiId: string, itemId: string, form: FormData): ProbeRequest => ({
  method: 'POST',
  path: `/v1/rfis/${rfiId}/items/${itemId}/documents`,
  version: RFI_VERSION,
  form,
});

/** An upload to the document item of the run's RFI in `state`. */
export const uploadToDocumentItem =
  (form: () => FormData, state: RfiState = 'open') =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => {
    const rfi = await rfiOf(ctx, state);
    return uploadTo(rfi.rfiId, rfi.documentItemId, form());
  };

/** A PATCH answering the text_short item of the run's RFI in `state`. */
export const answerTextItem =
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
