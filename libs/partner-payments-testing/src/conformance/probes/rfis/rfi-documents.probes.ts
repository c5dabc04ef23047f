/**
 * RFI documents after upload and UBO links (version 2026-06-01): the download link as JSON and the
 * link served without partner auth, DELETE of a file, POST ubo-link (evidence §7; spec 7.3).
 */
import { createHash, randomUUID } from 'node:crypto';
import { sampleFile } from '../../../resources/rfis/sample-files.util';
import { ProbeSkipped } from '../../conformance-context.service';
import type { ConformanceProbe, ConformanceRfi, ProbeContext, ProbeRequest } from '../../probe.types';
import { t } from '../../shape.util';
import { anyError, contract, evidence, flatError, RFI_VERSION } from '../probe-shapes.util';
import { files, uploadTo } from './rfi-requests.util';

const documentPath = (d: { rfiId: string; itemId: string; documentId: string }) =>
  `/v1/rfis/${d.rfiId}/items/${d.itemId}/documents/${d.documentId}`;

/** GET the link of the run's uploaded document (JSON `{download_url, expires_at}`). */
const linkRequest = async (ctx: ProbeContext): Promise<ProbeRequest> => ({
  method: 'GET',
  path: documentPath(await ctx.rfiDocument()),
  version: RFI_VERSION,
});

/** Whether `path` (a document) answers its link now: 200, or the status it answers instead. */
async function linkStatus(ctx: ProbeContext, path: string): Promise<number> {
  return (await ctx.send({ method: 'GET', path, version: RFI_VERSION })).status;
}

/** The link's expiry, in minutes from now (NaN when it is not a date). */
const minutesLeft = (expiresAt: string) => (Date.parse(expiresAt) - Date.now()) / 60_000;

/** POST ubo-link for the item `pick` names on the run's RFI in `state`. */
const uboLink =
  (pick: 'uboLinkItemId' | 'uboLinkWithUrlItemId', state: 'open' | 'resolved' = 'open') =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => {
    const rfi: ConformanceRfi = state === 'open' ? await ctx.rfi() : await ctx.rfiIn(state);
    const itemId = rfi[pick];
    if (!itemId)
      throw new ProbeSkipped(
        `needs an RFI with a ubo_link item ${pick === 'uboLinkItemId' ? 'without' : 'with'} a url`,
      );
    return { method: 'POST', path: `/v1/rfis/${rfi.rfiId}/items/${itemId}/ubo-link`, version: RFI_VERSION };
  };

const linkShape = (url: string) => t.object({ [url]: t.string, expires_at: t.string });

export const RFI_DOCUMENT_PROBES: ConformanceProbe[] = [
  {
    id: 'rfis.documents.link',
    area: 'rfis',
    behaviour:
      'GET .../documents/{document_id} answers JSON { download_url, expires_at }: an absolute link that lasts minutes',
    sources: [evidence('[T1 KiraApiClient, AnswerRfiService]')],
    writes: true,
    needs: ['rfiDocument'],
    request: linkRequest,
    expect: { status: 200, shape: linkShape('download_url') },
    verify: (o) => {
      const b = o.body as { download_url: string; expires_at: string };
      const out: string[] = [];
      if (!/^https?:\/\//.test(b.download_url))
        out.push('body.download_url: expected an absolute URL, it is not');
      const left = minutesLeft(b.expires_at);
      if (!(left > 0 && left <= 61)) out.push('body.expires_at: expected within the next hour, it is not');
      return out;
    },
    sandbox:
      'a 5-minute HMAC-signed link of its own (`/__files/...`); a request that also sends Authorization is refused 400, as a presigned object-store URL refuses two auth mechanisms',
  },
  {
    id: 'rfis.documents.link-download',
    area: 'rfis',
    behaviour:
      'The download_url serves the uploaded bytes with no partner credentials (no x-api-key, no bearer)',
    sources: [evidence('[T1 KiraApiClient, AnswerRfiService]')],
    writes: true,
    needs: ['rfiDocument'],
    request: async (ctx) => {
      const answer = await ctx.send(await linkRequest(ctx));
      const url = (answer.body as { download_url?: unknown } | undefined)?.download_url;
      if (typeof url !== 'string') throw new Error(`the link answer has no download_url (${answer.status})`);
      return { method: 'GET', path: '(download_url)', url, auth: 'none' };
    },
    expect: { status: 200, shape: t.nonJson },
    verify: async (o, ctx) =>
      createHash('sha256').update(o.bytes).digest('hex') === (await ctx.rfiDocument()).sha256
        ? []
        : ['body: expected the bytes uploaded, got others'],
  },
  {
    id: 'rfis.documents.link.unknown',
    area: 'rfis',
    behaviour: 'GET .../documents/{document_id} when the RFI has no such file answers 404 not_found',
    sources: [contract('§7.3')],
    writes: false,
    request: () => ({
      method: 'GET',
      path: documentPath({ rfiId: randomUUID(), itemId: randomUUID(), documentId: randomUUID() }),
      version: RFI_VERSION,
    }),
    expect: { status: 404, shape: flatError('not_found') },
  },
  {
    id: 'rfis.documents.link.malformed-id',
    area: 'rfis',
    behaviour: 'GET .../documents/{document_id} with a malformed document_id answers 400 validation_error',
    sources: [contract('§7.3')],
    writes: false,
    request: () => ({
      method: 'GET',
      path: documentPath({ rfiId: randomUUID(), itemId: randomUUID(), documentId: 'not-a-uuid' }),
      version: RFI_VERSION,
    }),
    expect: { status: 400, shape: flatError('validation_error') },
  },
  {
    id: 'rfis.documents.delete',
    area: 'rfis',
    behaviour:
      'DELETE .../documents/{document_id} of a file that is not the last removes it (2xx; status and body not shown): the item then lists one file fewer',
    sources: [evidence('[T1 KiraApiClient]'), evidence('open question 1')],
    writes: true,
    needs: ['rfiDocument'],
    cleanup: 'removes the second file it uploads; the first stays (the last file cannot be removed)',
    request: async (ctx) => {
      const doc = await ctx.rfiDocument();
      const pdf = sampleFile('application/pdf');
      const answer = await ctx.send(
        uploadTo(doc.rfiId, doc.itemId, files('conformance-spare.pdf', 'application/pdf', pdf)),
      );
      const documents =
        (answer.body as { item?: { documents?: { document_id?: unknown }[] } } | undefined)?.item
          ?.documents ?? [];
      const spare = documents
        .map((d) => d.document_id)
        .find((id) => typeof id === 'string' && id !== doc.documentId);
      if (answer.status !== 201 || typeof spare !== 'string')
        throw new Error(`the second upload answered ${answer.status}`);
      return { method: 'DELETE', path: documentPath({ ...doc, documentId: spare }), version: RFI_VERSION };
    },
    expect: { status: [200, 204], shape: t.unspecified },
    verify: async (_o, ctx) => {
      const doc = await ctx.rfiDocument();
      const gone = await ctx.send({ method: 'GET', path: `/v1/rfis/${doc.rfiId}`, version: RFI_VERSION });
      const item = (
        gone.body as { items?: { item_id: string; documents: unknown[] }[] } | undefined
      )?.items?.find((i) => i.item_id === doc.itemId);
      return item?.documents.length === 1
        ? []
        : ['the item: expected one file left after the delete, it has another count'];
    },
    sandbox: "204 with no body (the partner's answer is an open question)",
  },
  {
    id: 'rfis.documents.delete-last',
    area: 'rfis',
    behaviour:
      'DELETE of the last file of an answered item answers 422 "The last file cannot be removed" and removes nothing',
    sources: [evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['rfiDocument'],
    cleanup: 'nothing is removed (refused)',
    request: async (ctx) => ({
      method: 'DELETE',
      path: documentPath(await ctx.rfiDocument()),
      version: RFI_VERSION,
    }),
    expect: { status: 422, shape: anyError },
    verify: async (o, ctx) => {
      const out = /last file/i.test(JSON.stringify(o.body))
        ? []
        : ['body: expected to say the last file cannot be removed, does not'];
      const still = await linkStatus(ctx, documentPath(await ctx.rfiDocument()));
      if (still !== 200) out.push(`the file: expected still there (its link 200), got ${still}`);
      return out;
    },
  },
  {
    id: 'rfis.ubo-link',
    area: 'rfis',
    behaviour:
      'POST .../items/{item_id}/ubo-link for a ubo_link item with applicant_id and person_id and no url answers 201 { url, expires_at } (about an hour)',
    sources: [evidence('[T1 REVISION-DOCS §3.1]')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'a verification link; it expires on its own (~1 h)',
    request: uboLink('uboLinkItemId'),
    expect: { status: 201, shape: linkShape('url') },
    verify: (o) => {
      const left = minutesLeft((o.body as { expires_at: string }).expires_at);
      return left > 0 && left <= 121 ? [] : ['body.expires_at: expected about an hour from now, it is not'];
    },
  },
  {
    id: 'rfis.ubo-link.has-url',
    area: 'rfis',
    behaviour: 'POST ubo-link for an item whose answer_spec already has a url answers 422',
    sources: [evidence('[T1 REVISION-DOCS §3.1]')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is created (refused)',
    request: uboLink('uboLinkWithUrlItemId'),
    expect: { status: 422, shape: anyError },
  },
  {
    id: 'rfis.ubo-link.closed',
    area: 'rfis',
    behaviour: 'POST ubo-link on a closed (resolved) RFI answers 409',
    sources: [evidence('[T1 REVISION-DOCS §3.1]'), contract('§3.2')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is created (refused)',
    request: uboLink('uboLinkItemId', 'resolved'),
    expect: { status: 409, shape: anyError },
  },
  {
    id: 'rfis.ubo-link.unknown',
    area: 'rfis',
    behaviour: "POST ubo-link on an unknown (another client's or withdrawn) RFI answers 404 { message }",
    sources: [evidence('[T1 REVISION-DOCS §3.1]'), contract('§7.1')],
    writes: false,
    request: () => ({
      method: 'POST',
      path: `/v1/rfis/${randomUUID()}/items/${randomUUID()}/ubo-link`,
      version: RFI_VERSION,
    }),
    expect: { status: 404, shape: t.object({ message: t.string }) },
  },
];
