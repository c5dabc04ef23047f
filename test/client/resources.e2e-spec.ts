import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import {
  PartnerConflictError,
  PartnerNotFoundError,
  PartnerRfiAnswerError,
} from '@partner-payments/nestjs/errors';
import {
  isTerminalPayoutStatus,
  isVirtualAccountUsable,
  type RfiItem,
} from '@partner-payments/nestjs/models';
import {
  samplePdf,
  samplePng,
} from '../../libs/partner-payments/src/resources/rfis/upload/sample-files.fixture';
import {
  fundedSetup,
  individual,
  startClientWorld,
  stopClientWorld,
  type ClientWorld,
} from './client.fixture';

describe('every resource call against the sandbox (real socket)', () => {
  let world: ClientWorld;
  beforeEach(async () => {
    world = await startClientWorld({}, { rateLimit: false });
  });
  afterEach(() => stopClientWorld(world));
  const client = () => world.graph.client;
  const count = async (route: string) => (await world.sandbox.control.counters()).requests[route] ?? 0;

  describe('users', () => {
    it('create (key generated, metadata kept), get, update via PUT, list with offset paging, iterate', async () => {
      const created = await client().users.create(individual({ metadata: { crm_id: 'c-1' } }));
      expect(created.userId).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.metadata).toMatchObject({ crm_id: 'c-1' });
      const log = await world.sandbox.control.requestLog();
      expect(log.find((e) => e.route === 'POST /v1/users')?.headers['idempotency-key']).toMatch(
        /^[0-9a-f-]{36}$/,
      );

      await expect(client().users.get(created.userId)).resolves.toMatchObject({
        userId: created.userId,
        email: 'ada@example.com',
      });
      const updated = await client().users.update(created.userId, { email: 'ada2@example.com' });
      expect(updated.email).toBe('ada2@example.com');

      for (let i = 0; i < 4; i++) await client().users.create(individual({ email: `u${i}@example.com` }));
      const page = await client().users.list({ limit: 2, offset: 0 });
      expect(page).toMatchObject({ total: 5, limit: 2, offset: 0, hasMore: true });
      expect(page.data).toHaveLength(2);
      const all: string[] = [];
      for await (const u of client().users.iterate({ limit: 2 })) all.push(u.userId);
      expect(new Set(all).size).toBe(5);
      expect(await count('GET /v1/users')).toBe(4); // 1 list + 3 pages of 2
    });

    it('limit above 100 and bad metadata are refused locally, before any I/O', async () => {
      await expect(client().users.list({ limit: 101 })).rejects.toBeInstanceOf(PartnerLocalValidationError);
      const err = await client()
        .users.create(individual({ metadata: { 'bad[key]': 'x' } }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartnerLocalValidationError);
      expect((await world.sandbox.control.requestLog()).filter((e) => e.route !== 'POST /auth')).toHaveLength(
        0,
      );
    });

    it('liveness link: one entry for an individual with a null reference', async () => {
      const user = await client().users.create(individual());
      const links = await client().users.createLivenessLink(user.userId);
      expect(links).toHaveLength(1);
      expect(links[0].referenceId).toBeNull();
      expect(links[0].url).toMatch(/^https:\/\//);
    });
  });

  // recipients: test/client/recipients.e2e-spec.ts

  describe('virtual accounts and deposits', () => {
    it('create, get, a second for the same bank is 409, deposit read, liquidation addresses (header always sent)', async () => {
      const ids = await fundedSetup(world);
      const va = await client().virtualAccounts.get(ids.vaId);
      expect(va.virtual_account_id).toBe(ids.vaId);
      expect(typeof isVirtualAccountUsable(va)).toBe('boolean');
      await expect(
        client().virtualAccounts.create({ user_id: ids.userId, bank: 'bank_a' }),
      ).rejects.toBeInstanceOf(PartnerConflictError);

      const { depositId } = await world.sandbox.control.simulateDeposit(ids.vaId, {
        amount: '50.00',
        rail: 'WIRE',
      });
      const deposit = await client().virtualAccounts.getDeposit(ids.vaId, depositId);
      expect(deposit).toMatchObject({ deposit_id: depositId, amount: '50.00' });

      await expect(client().virtualAccounts.listLiquidationAddresses(ids.vaId)).resolves.toEqual([]);
      const { id } = await world.sandbox.control.addLiquidationAddress(ids.vaId);
      const list = await client().virtualAccounts.listLiquidationAddresses(ids.vaId);
      expect(list.map((l) => l.id)).toEqual([id]);
    });

    it('liquidation addresses keep X-Api-Version after pinning with until-pinned', async () => {
      await stopClientWorld(world);
      world = await startClientWorld({}, { rateLimit: false, sendVersionHeader: 'until-pinned' });
      const ids = await fundedSetup(world);
      await client().versioning.upgrade('2026-04-14');
      await expect(client().virtualAccounts.listLiquidationAddresses(ids.vaId)).resolves.toEqual([]);
      const entry = (await world.sandbox.control.requestLog()).pop();
      expect(entry?.headers['x-api-version']).toBe('2026-04-14');
      expect(entry?.status).toBe(200);
    });
  });

  describe('payouts', () => {
    it('create normalises id/lowercase, get normalises payout_id/UPPERCASE, lifecycle, list and iterate', async () => {
      const ids = await fundedSetup(world);
      const created = await client().payouts.create(ids.vaId, {
        amount: '100.00',
        currency: 'USD',
        recipient_id: ids.recipientId,
        extra_info: { memo: 'inv 42' },
      });
      expect(created).toMatchObject({
        status: 'CREATED',
        rawStatus: 'created',
        amount: '100.00',
        currency: 'USD',
      });
      const read = await client().payouts.get(created.payoutId);
      expect(read).toMatchObject({
        payoutId: created.payoutId,
        status: 'CREATED',
        userId: ids.userId,
        recipientId: ids.recipientId,
      });

      await world.sandbox.control.advancePayout(created.payoutId, ['PENDING', 'PROCESSING', 'COMPLETED']);
      const done = await client().payouts.get(created.payoutId);
      expect(done.status).toBe('COMPLETED');
      expect(isTerminalPayoutStatus(done.status)).toBe(true);
      expect(done.referenceNumber).not.toBeNull();
      await world.sandbox.control.advancePayout(created.payoutId, 'RETURNED');
      expect((await client().payouts.get(created.payoutId)).status).toBe('FAILED');

      await client().payouts.create(ids.vaId, {
        amount: '1.00',
        currency: 'USD',
        recipient_id: ids.recipientId,
      });
      await client().payouts.create(ids.vaId, {
        amount: '2.00',
        currency: 'USD',
        recipient_id: ids.recipientId,
      });
      const page = await client().payouts.list({ user_id: ids.userId, limit: 2 });
      expect(page).toMatchObject({ total: 3, page: 1, limit: 2, totalPages: 2 });
      const seen: string[] = [];
      for await (const p of client().payouts.iterate({ user_id: ids.userId, limit: 2 }))
        seen.push(p.payoutId);
      expect(new Set(seen).size).toBe(3);
      const failed = await client().payouts.list({ status: 'failed' });
      expect(failed.payouts.map((p) => p.payoutId)).toEqual([created.payoutId]);
    });

    it('a float amount is refused locally; the caller key is sent and a replay returns the same payout', async () => {
      const ids = await fundedSetup(world);
      await expect(
        client().payouts.create(ids.vaId, {
          amount: 100 as unknown as string,
          currency: 'USD',
          recipient_id: ids.recipientId,
        }),
      ).rejects.toBeInstanceOf(PartnerLocalValidationError);
      const key = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
      const body = { amount: '5.00', currency: 'USD', recipient_id: ids.recipientId };
      const a = await client().payouts.create(ids.vaId, body, { idempotencyKey: key });
      const b = await client().payouts.create(ids.vaId, body, { idempotencyKey: key });
      expect(b.payoutId).toBe(a.payoutId);
      expect((await world.sandbox.control.counters()).created.payouts).toBe(1);
    });
  });

  describe('client configuration and versioning', () => {
    it('reads data of { success, data } for the own client UUID', async () => {
      let config = await client().clientConfig.get();
      expect(config.client.client_uuid).toBe(world.sandbox.credentials.clientUuid);
      expect(config.authorizedBanks).toEqual(expect.arrayContaining(['bank_a']));
      expect(config.client_wallets).toBeNull();
      await world.sandbox.control.provisionClientWallet();
      config = await client().clientConfig.get();
      expect(config.client_wallets).toMatchObject({ address: expect.any(String) });
      const log = await world.sandbox.control.requestLog();
      expect(log.pop()?.path).toBe(`/sandbox/v1/clients/${world.sandbox.credentials.clientUuid}`);
    });

    it('an older target than the pin is refused', async () => {
      await client().versioning.upgrade('2026-06-01');
      await expect(client().versioning.upgrade('2026-04-14')).rejects.toMatchObject({ status: 400 });
    });
  });

  describe('RFIs (version 2026-06-01)', () => {
    const seed = async () => {
      const user = await client().users.create(individual());
      return world.sandbox.control.seedRfi({ userId: user.userId });
    };

    it('list and get send X-Api-Version 2026-06-01; get returns the items, list entries none (evidence §7)', async () => {
      const seeded = await seed();
      const page = await client().rfis.list({ user_id: seeded.userId });
      expect(page.data.map((r) => r.id)).toEqual([seeded.rfiId]);
      expect(page.data[0].items).toBeUndefined();
      const rfi = await client().rfis.get(seeded.rfiId);
      expect(rfi.items.map((i) => i.item_id).sort()).toEqual([...seeded.itemIds].sort());
      const versions = (await world.sandbox.control.requestLog())
        .filter((e) => e.route.includes('/v1/rfis'))
        .map((e) => e.headers['x-api-version']);
      expect(versions).toEqual(['2026-06-01', '2026-06-01']);
    });

    it('answerItems: valid answers recorded; a bad one is refused locally with known items, and by the server as itemErrors', async () => {
      const seeded = await seed();
      const shortId = seeded.itemIdsByType.text_short as string;
      const boolId = seeded.itemIdsByType.boolean as string;
      const items = await client().rfis.answerItems(seeded.rfiId, [
        { item_id: shortId, answer_value: 'Acme' },
        { item_id: boolId, answer_value: true },
      ]);
      expect(items.map((i) => [i.item_id, i.status, i.answer_value])).toEqual([
        [shortId, 'answered', 'Acme'],
        [boolId, 'answered', true],
      ]);
      const tooLong = [{ item_id: shortId, answer_value: 'x'.repeat(51) }];
      await expect(
        client().rfis.answerItems(seeded.rfiId, tooLong, { fetchItems: true }),
      ).rejects.toBeInstanceOf(PartnerLocalValidationError);
      const err = await client()
        .rfis.answerItems(seeded.rfiId, tooLong)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartnerRfiAnswerError);
      expect((err as PartnerRfiAnswerError).itemErrors).toEqual([
        { itemId: shortId, message: expect.any(String) },
      ]);
      await expect(client().rfis.answerItems(seeded.rfiId, [])).rejects.toBeInstanceOf(
        PartnerLocalValidationError,
      );
    });

    it('a closed RFI refuses answers with a typed 409', async () => {
      const seeded = await seed();
      await world.sandbox.control.setRfiStatus(seeded.rfiId, 'resolved');
      const id = seeded.itemIdsByType.text_short as string;
      await expect(
        client().rfis.answerItems(seeded.rfiId, [{ item_id: id, answer_value: 'A' }]),
      ).rejects.toBeInstanceOf(PartnerConflictError);
    });

    it('uploadDocuments streams a path, a Buffer and a stream; downloadDocument streams it back; a lying file is refused before any I/O', async () => {
      const seeded = await seed();
      const docId = seeded.itemIdsByType.document as string;
      const dir = await mkdtemp(join(tmpdir(), 'pp-upload-'));
      try {
        const pdfPath = join(dir, 'proof.pdf');
        await writeFile(pdfPath, samplePdf());
        const item: RfiItem = await client().rfis.uploadDocuments(seeded.rfiId, docId, [
          { path: pdfPath },
          { buffer: samplePng(), fileName: 'scan.png', contentType: 'image/png' },
        ]);
        expect(item.status).toBe('answered');
        expect(item.documents.map((d) => [d.file_name, d.mime_type])).toEqual([
          ['proof.pdf', 'application/pdf'],
          ['scan.png', 'image/png'],
        ]);
        const log = (await world.sandbox.control.requestLog()).pop();
        expect(log?.headers['x-api-version']).toBe('2026-06-01');
        expect(log?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);

        const download = await client().rfis.downloadDocument(
          seeded.rfiId,
          docId,
          item.documents[0].document_id,
        );
        expect(download).toMatchObject({
          fileName: 'proof.pdf',
          contentType: expect.stringMatching(/^application\/pdf/),
        });
        const chunks: Buffer[] = [];
        for await (const c of download.stream) chunks.push(c as Buffer);
        expect(Buffer.concat(chunks).equals(samplePdf())).toBe(true);
        // evidence §7: the document route answers a presigned link; the client fetched it with no
        // partner credential (the sandbox's link store logs the request's header names).
        const fetched = (await world.sandbox.control.requestLog()).filter((r) =>
          r.path.startsWith('/__files/'),
        );
        expect(fetched).toHaveLength(1);
        expect(Object.keys(fetched[0].headers)).not.toEqual(expect.arrayContaining(['x-api-key']));
        expect(Object.keys(fetched[0].headers)).not.toEqual(expect.arrayContaining(['authorization']));
        const link = await client().rfis.getDocumentLink(seeded.rfiId, docId, item.documents[0].document_id);
        expect(link).toEqual({
          downloadUrl: expect.stringContaining('/__files/'),
          expiresAt: expect.any(String),
        });
        await expect(
          client().rfis.downloadDocument(seeded.rfiId, docId, '0b7d9a55-7c1d-4c1e-9d8a-2f1a3c4b5d6e'),
        ).rejects.toBeInstanceOf(PartnerNotFoundError);

        const third = await client().rfis.uploadDocuments(
          seeded.rfiId,
          docId,
          [{ stream: Readable.from([samplePdf()]), fileName: 'more.pdf', contentType: 'application/pdf' }],
          { fetchItem: true },
        );
        expect(third.documents).toHaveLength(3);

        const before = (await world.sandbox.control.counters()).requests[
          'POST /v1/rfis/:id/items/:id/documents'
        ];
        const lying = await client()
          .rfis.uploadDocuments(seeded.rfiId, docId, [
            { buffer: samplePng(), fileName: 'fake.pdf', contentType: 'application/pdf' },
          ])
          .catch((e: unknown) => e);
        expect(lying).toBeInstanceOf(PartnerLocalValidationError);
        // max_files is 3 and the item holds 3: refused locally once the item is known
        await expect(
          client().rfis.uploadDocuments(seeded.rfiId, docId, [{ path: pdfPath }], { fetchItem: true }),
        ).rejects.toBeInstanceOf(PartnerLocalValidationError);
        const after = (await world.sandbox.control.counters()).requests[
          'POST /v1/rfis/:id/items/:id/documents'
        ];
        expect(after).toBe(before);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
