/** Document uploads: spec 2.2, 4.2, 7.3, 8 (version 2026-06-01, evidence §7). */
import { randomUUID } from 'node:crypto';
import { sampleFile } from '../../../resources/rfis/sample-files.util';
import type { ConformanceProbe } from '../../probe.types';
import { t } from '../../shape.util';
import { anyError, contract, flatError, RFI_VERSION } from '../probe-shapes.util';
import { documentShape, files, uploadToDocumentItem } from './rfi-requests.util';

export const UPLOAD_PROBES: ConformanceProbe[] = [
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
    id: 'uploads.lying-bytes',
    area: 'uploads',
    behaviour:
      'A file whose bytes are not the type it was sent as (PDF bytes sent as image/png) answers 422, nothing stored',
    sources: [contract('§7.3')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is stored (refused)',
    request: uploadToDocumentItem(() => files('photo.png', 'image/png', sampleFile('application/pdf'))),
    expect: { status: 422, shape: flatError('unprocessable') },
  },
  {
    id: 'uploads.too-many-files',
    area: 'uploads',
    behaviour: 'More than 20 files in one call answers 422, nothing stored',
    sources: [contract('§7.3, §8')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is stored (refused)',
    request: uploadToDocumentItem(() => {
      const form = new FormData();
      const pdf = new Uint8Array(sampleFile('application/pdf'));
      for (let i = 0; i < 21; i++)
        form.append('files', new Blob([pdf], { type: 'application/pdf' }), `f${i}.pdf`);
      return form;
    }),
    expect: { status: 422, shape: flatError('unprocessable') },
  },
  {
    id: 'uploads.not-a-document-item',
    area: 'uploads',
    behaviour: 'An upload to an item that asks for something other than files answers 422',
    sources: [contract('§7.3, §4.2')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is stored (refused)',
    request: async (ctx) => {
      const rfi = await ctx.rfi();
      return {
        method: 'POST',
        path: `/v1/rfis/${rfi.rfiId}/items/${rfi.textItemId}/documents`,
        version: RFI_VERSION,
        form: files('a.pdf', 'application/pdf', sampleFile('application/pdf')),
      };
    },
    expect: { status: 422, shape: flatError('unprocessable') },
  },
];
