/** RFIs: spec 2.1, 3.2, 4.3, 7.2, 7.4 and evidence §7 (all on version 2026-06-01). */
import { randomUUID } from 'node:crypto';
import { ProbeSkipped } from '../../conformance-context.service';
import type { ConformanceProbe } from '../../probe.types';
import { t } from '../../shape.util';
import { contract, evidence, flatError, RFI_VERSION } from '../probe-shapes.util';
import { answerTextItem, itemShape } from './rfi-requests.util';

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
      "the list envelope `{ rfis, total, limit, offset }` is our reading of weak evidence (code, not a capture); entries never carry `items` (the partner's may lack them: re-read GET /v1/rfis/{id})",
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
    id: 'rfis.unknown-version',
    area: 'rfis',
    behaviour:
      'An unknown later version (X-Api-Version 2099-01-01) does not open the RFI routes: it is accepted silently, as if absent, so an account not pinned to 2026-06-01 gets the unmatched 403',
    sources: [evidence('[T1 REVISION-DOCS §2.3]'), evidence('[T3r DRIFT-11]')],
    writes: false,
    request: async (ctx) => {
      // Without a header the account's own version answers (evidence §1): on a 2026-06-01 pin the
      // RFI routes exist anyway, and this probe shows nothing.
      const plain = await ctx.send({ method: 'GET', path: '/v1/users?limit=1' });
      if (plain.headers.get('x-api-version') === RFI_VERSION)
        throw new ProbeSkipped(
          `the account is pinned to ${RFI_VERSION}, where RFI routes exist without a version`,
        );
      return { method: 'GET', path: '/v1/rfis?limit=1', version: '2099-01-01' };
    },
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
  {
    id: 'rfis.answer.empty-items',
    area: 'rfis',
    behaviour:
      'PATCH items with an empty items array (at least 1 is required) is refused as validation_error',
    sources: [contract('§4.3, §7.4, §8')],
    writes: true,
    needs: ['rfi'],
    cleanup: 'nothing is saved (refused)',
    request: async (ctx) => ({
      method: 'PATCH',
      path: `/v1/rfis/${(await ctx.rfi()).rfiId}/items`,
      version: RFI_VERSION,
      body: { items: [] },
    }),
    // spec 7.4: the status of this error is not shown; 400 and 422 both pass.
    expect: { status: [400, 422], shape: flatError('validation_error') },
  },
  {
    id: 'rfis.get',
    area: 'rfis',
    behaviour:
      'GET /v1/rfis/{id} answers the RFI with rfi_id, user_id, status, due_at, blocking (null or what it holds), resolution_reason (null while open) and its items',
    sources: [evidence('[T1 AnswerRfiService]'), contract('§2.1, §3.2')],
    writes: true,
    needs: ['rfi'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/rfis/${(await ctx.rfi()).rfiId}`,
      version: RFI_VERSION,
    }),
    expect: {
      status: 200,
      shape: t.object({
        rfi_id: t.string,
        user_id: t.string,
        status: t.string,
        due_at: t.string,
        blocking: t.nullable(t.object({ type: t.string })),
        resolution_reason: t.nullable(t.enum('expired', 'rejected', 'withdrawn')),
        items: t.array(itemShape),
      }),
    },
  },
];
