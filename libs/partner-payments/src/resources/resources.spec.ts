import { Readable } from 'node:stream';
import { PartnerAuthenticationError, PartnerPagingError } from '../errors/partner-api.errors';
import { PartnerLocalValidationError } from '../errors/partner.errors';
import {
  authOk,
  createTestClient,
  json,
  pathOf,
  startLocalServer,
  type LocalServer,
} from '../http/local-server.fixture';
import { buildPartnerClientGraph } from '../client-graph.util';
import { samplePdf } from './rfis/upload/sample-files.fixture';
import { iterateOffsetPages, toOffsetPage } from './shared/resource.util';
import { toPartnerUser } from './users/users.service';

describe('resource helpers', () => {
  it('toOffsetPage reads { data, pagination } and tolerant variants', () => {
    const id = (v: unknown) => v;
    expect(
      toOffsetPage(
        { data: [1, 2], pagination: { total: 5, limit: 2, offset: 0, has_more: true } },
        ['data'],
        id,
      ),
    ).toEqual({
      data: [1, 2],
      total: 5,
      limit: 2,
      offset: 0,
      hasMore: true,
    });
    expect(toOffsetPage({ rfis: [1], total: 3, limit: 1, offset: 2 }, ['data', 'rfis'], id)).toMatchObject({
      hasMore: false,
    });
    expect(toOffsetPage([1, 2, 3], ['data'], id)).toMatchObject({
      data: [1, 2, 3],
      total: null,
      hasMore: false,
    });
  });

  it('iterateOffsetPages walks until hasMore is false', async () => {
    const offsets: number[] = [];
    const items: number[] = [];
    for await (const n of iterateOffsetPages(async (offset, limit) => {
      offsets.push(offset);
      const data = [0, 1, 2, 3, 4].slice(offset, offset + limit);
      return { data, total: 5, limit, offset, hasMore: offset + data.length < 5 };
    }, 2)) {
      items.push(n);
    }
    expect(items).toEqual([0, 1, 2, 3, 4]);
    expect(offsets).toEqual([0, 2, 4]);
  });

  it('iterateOffsetPages stops with PartnerPagingError when a page is not at the offset asked for', async () => {
    // A partner that ignores `offset` answers its first page every time, has_more true.
    const calls: number[] = [];
    const seen: number[] = [];
    const walk = async () => {
      for await (const n of iterateOffsetPages(
        async (offset, limit) => {
          calls.push(offset);
          return { data: [0, 1].slice(0, limit), total: 6, limit, offset: 0, hasMore: true };
        },
        2,
        'GET /v1/things',
      ))
        seen.push(n);
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerPagingError);
    expect(error).toMatchObject({
      code: 'paging_mismatch',
      list: 'GET /v1/things',
      requestedOffset: 2,
      answeredOffset: 0,
    });
    expect(seen).toEqual([0, 1]); // the first page once, never twice
    expect(calls).toEqual([0, 2]);
  });

  it('toPartnerUser accepts user_id or id and refuses neither', () => {
    expect(toPartnerUser({ user_id: 'u1', status: 'VERIFIED' })).toMatchObject({
      userId: 'u1',
      status: 'VERIFIED',
      metadata: {},
    });
    expect(toPartnerUser({ id: 'u2' }).userId).toBe('u2');
    expect(() => toPartnerUser({})).toThrow(TypeError);
  });
});

describe('resources over a local server', () => {
  let server: LocalServer;
  beforeEach(async () => {
    server = await startLocalServer();
  });
  afterEach(() => server.close());
  const graph = () => buildPartnerClientGraph(createTestClient(server.baseUrl).options);
  const apiCalls = () => server.requests.filter((r) => pathOf(r) !== '/auth');

  it('recipients.createOrGet tolerates a 202 "already existed" (never observed, evidence §4) and reads `id` too', async () => {
    let status = 201;
    server.setHandler((req, res) =>
      pathOf(req) === '/auth'
        ? authOk(res)
        : json(res, status, { id: 'r-1', type: 'individual', account_type: 'WALLET', account_details: {} }),
    );
    const input = {
      user_id: '0b7d9a55-7c1d-4c1e-9d8a-2f1a3c4b5d6e',
      first_name: 'A',
      last_name: 'B',
      account: {
        account_type: 'WALLET' as const,
        address: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
        network: 'polygon' as const,
        token: 'USDC' as const,
      },
    };
    const g = graph();
    expect(await g.client.recipients.createOrGet(input)).toMatchObject({
      created: true,
      recipient: { recipient_id: 'r-1', metadata: {} },
    });
    status = 202;
    expect(await g.client.recipients.createOrGet(input)).toMatchObject({
      created: false,
      recipient: { recipient_id: 'r-1' },
    });
    expect(apiCalls().map((r) => r.headers['idempotency-key'])).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
  });

  it('clientConfig without clientUuid fails locally; with it, unwraps { success, data } and defaults authorizedBanks', async () => {
    server.setHandler((req, res) =>
      pathOf(req) === '/auth'
        ? authOk(res)
        : json(res, 200, {
            success: true,
            data: { client: { id: 1 }, client_wallets: null, client_vault: null },
          }),
    );
    const g = graph();
    await expect(g.client.clientConfig.get()).rejects.toBeInstanceOf(PartnerLocalValidationError);
    expect(server.requests).toHaveLength(0);
    const config = await g.client.clientConfig.get('c-uuid');
    expect(config).toEqual({
      client: { id: 1 },
      client_wallets: null,
      client_vault: null,
      authorizedBanks: [],
    });
    expect(apiCalls()[0].url).toBe('/sandbox/v1/clients/c-uuid');
  });

  it('rfis.list / iterate entries never carry items, even when the partner sends some; get keeps them (evidence §7)', async () => {
    const item = { item_id: 'i1', answer_type: 'text_short', status: 'pending', documents: [] };
    server.setHandler((req, res) => {
      if (pathOf(req) === '/auth') return authOk(res);
      // evidence §7 [T1 KiraApiClient, AnswerRfiService]: list entries may lack items.
      if (pathOf(req) === '/v1/rfis')
        return json(res, 200, {
          rfis: [
            { rfi_id: 'r1', status: 'pending', items: [item] },
            { rfi_id: 'r2', status: 'answered' },
          ],
          total: 2,
          limit: 100,
          offset: 0,
        });
      if (pathOf(req) === '/v1/rfis/r2') return json(res, 200, { rfi_id: 'r2', status: 'answered' });
      return json(res, 200, { rfi_id: 'r1', status: 'pending', items: [item] });
    });
    const g = graph();
    const page = await g.client.rfis.list();
    expect(page.data).toEqual([
      { rfi_id: 'r1', id: 'r1', status: 'pending' },
      { rfi_id: 'r2', id: 'r2', status: 'answered' },
    ]);
    expect(page.data.map((e) => e.items)).toEqual([undefined, undefined]);
    const iterated = [];
    for await (const entry of g.client.rfis.iterate()) iterated.push(entry);
    expect(iterated).toEqual(page.data);
    expect((await g.client.rfis.get('r1')).items).toEqual([item]);
    // the detail is where items are: one without any is an RFI with no items, not a list entry
    expect((await g.client.rfis.get('r2')).items).toEqual([]);
  });

  it('an upload from a Buffer is rebuilt and re-sent after a 401; a caller stream is sent once only', async () => {
    let uploads = 0;
    server.setHandler((req, res) => {
      if (pathOf(req) === '/auth') return authOk(res, `tok-${server.requests.length}`);
      uploads++;
      if (uploads === 1 || uploads === 3)
        return json(res, 401, { code: 'invalid_request', message: 'expired' });
      return json(res, 201, { item: { item_id: 'i1', status: 'answered', documents: [] } });
    });
    const g = graph();
    const item = await g.client.rfis.uploadDocuments('r1', 'i1', [
      { buffer: samplePdf(), fileName: 'a.pdf', contentType: 'application/pdf' },
    ]);
    expect(item).toMatchObject({ item_id: 'i1', status: 'answered' });
    const [first, second] = apiCalls();
    expect(first.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    // both attempts carried the whole file
    expect(first.body).toContain('%PDF-1.4');
    expect(second.body).toContain('%PDF-1.4');
    expect(second.headers['x-api-version']).toBe('2026-06-01');

    const stream = Readable.from([samplePdf()]);
    const err = await g.client.rfis
      .uploadDocuments('r1', 'i1', [{ stream, fileName: 'b.pdf', contentType: 'application/pdf' }])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAuthenticationError);
    expect(apiCalls()).toHaveLength(3);
  });
});
