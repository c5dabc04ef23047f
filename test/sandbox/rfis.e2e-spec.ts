import type { SeededRfi } from '@partner-payments/testing';
import { Api, individual, startWorld, stopWorld, type World } from './sandbox.fixture';

const V = '2026-06-01';

describe('sandbox: RFIs (spec 2.1, 3.1, 3.2, 4.3, 7.4; provider-facts RFIs)', () => {
  let world: World;
  let userId: string;
  let rfi: SeededRfi;
  const rfiCall = (method: string, path: string, body?: unknown) =>
    world.api.call(method, path, { body, version: V });
  const patch = (items: unknown[]) => rfiCall('PATCH', `/v1/rfis/${rfi.rfiId}/items`, { items });
  const getItem = async (itemId: string) =>
    (await rfiCall('GET', `/v1/rfis/${rfi.rfiId}`)).body.items.find(
      (i: { item_id: string }) => i.item_id === itemId,
    );

  beforeEach(async () => {
    world = await startWorld();
    userId = (
      await world.api.call('POST', '/v1/users', {
        body: {
          type: 'business',
          business_legal_name: 'Acme LLC',
          source_of_funds: 'business_income',
          associated_persons: [{ first_name: 'Grace', last_name: 'Hopper' }],
        },
      })
    ).body.id;
    rfi = await world.sandbox.control.seedRfi({ userId });
  });
  afterEach(() => stopWorld(world));

  it('the parent carries due_at, blocking and resolution_reason; not_resolved records expired and sends rfi.not_resolved (evidence §7, §9)', async () => {
    const read = (await rfiCall('GET', `/v1/rfis/${rfi.rfiId}`)).body;
    expect(read).toMatchObject({ due_at: expect.any(String), blocking: null, resolution_reason: null });
    expect(Date.parse(read.due_at)).toBeGreaterThan(Date.now());
    const held = await world.sandbox.control.seedRfi({
      userId,
      blocking: { type: 'payout', transfer_uuid: '0b6f0b0e-8f5e-4d52-9a5e-4f0c7d1c2a11' },
    });
    expect((await rfiCall('GET', `/v1/rfis/${held.rfiId.toUpperCase()}`)).body.blocking).toEqual({
      type: 'payout',
      transfer_uuid: '0b6f0b0e-8f5e-4d52-9a5e-4f0c7d1c2a11',
    });
    await world.sandbox.control.setRfiStatus(rfi.rfiId, 'not_resolved');
    expect((await rfiCall('GET', `/v1/rfis/${rfi.rfiId}`)).body).toMatchObject({
      status: 'not_resolved',
      resolution_reason: 'expired',
    });
    await world.sandbox.control.setRfiStatus(held.rfiId, 'not_resolved', 'rejected');
    expect((await rfiCall('GET', `/v1/rfis/${held.rfiId}`)).body.resolution_reason).toBe('rejected');
  });

  it('ubo-link: 201 {url, expires_at} for a ubo_link item with applicant and person; 422 when it has a url; 409 closed', async () => {
    const ubo = await world.sandbox.control.seedRfi({
      userId,
      items: [
        { answer_type: 'ubo_link', answer_spec: { applicant_id: 'app-1', person_id: 'per-1' } },
        { answer_type: 'ubo_link', answer_spec: { url: 'https://verify.example/x' } },
      ],
    });
    const link = await rfiCall('POST', `/v1/rfis/${ubo.rfiId}/items/${ubo.itemIds[0]}/ubo-link`);
    expect(link.status).toBe(201);
    expect(link.body).toEqual({ url: expect.stringMatching(/^https:\/\//), expires_at: expect.any(String) });
    const minutes = (Date.parse(link.body.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(50);
    expect(minutes).toBeLessThanOrEqual(60);
    expect((await rfiCall('POST', `/v1/rfis/${ubo.rfiId}/items/${ubo.itemIds[1]}/ubo-link`)).status).toBe(
      422,
    );
    await world.sandbox.control.setRfiStatus(ubo.rfiId, 'resolved');
    expect((await rfiCall('POST', `/v1/rfis/${ubo.rfiId}/items/${ubo.itemIds[0]}/ubo-link`)).status).toBe(
      409,
    );
  });

  it('seeds one item of every answer_type with its answer_spec; GET shows them (items at top level)', async () => {
    const answer = await rfiCall('GET', `/v1/rfis/${rfi.rfiId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ rfi_id: rfi.rfiId, user_id: userId, status: 'pending' });
    const types = answer.body.items.map((i: { answer_type: string }) => i.answer_type);
    expect(types.sort()).toEqual([
      'boolean',
      'choice',
      'date',
      'document',
      'identifier',
      'number',
      'text_long',
      'text_short',
      'ubo_link',
    ]);
    for (const item of answer.body.items) {
      expect(item).toEqual({
        item_id: expect.any(String),
        ordinal: expect.any(Number),
        prompt: expect.any(String),
        answer_type: expect.any(String),
        answer_spec: expect.any(Object),
        target_key: item.target_key === null ? null : expect.any(String),
        subject:
          item.subject === null ? null : { person_id: expect.any(String), display_name: 'Grace Hopper' },
        status: 'pending',
        answer_value: null,
        documents: [],
        review_note: null,
        updated_at: null,
        returned_at: null,
      });
    }
    const byType = Object.fromEntries(
      answer.body.items.map((i: { answer_type: string; answer_spec: unknown }) => [
        i.answer_type,
        i.answer_spec,
      ]),
    );
    expect(byType.document).toMatchObject({ mime_types: expect.any(Array), max_files: expect.any(Number) });
    expect(byType.text_short).toMatchObject({ max_length: expect.any(Number) });
    expect(byType.choice).toMatchObject({ options: expect.any(Array) });
    const list = await rfiCall('GET', `/v1/rfis?user_id=${userId}&limit=10`);
    expect(list.body).toMatchObject({ total: 1, rfis: [expect.objectContaining({ rfi_id: rfi.rfiId })] });
    expect((await rfiCall('GET', '/v1/rfis?limit=101')).status).toBe(400);
  });

  it('list entries carry the parent fields but never items; GET /v1/rfis/{id} keeps them (evidence §7)', async () => {
    const t = rfi.itemIdsByType;
    await patch([{ item_id: t.choice, answer_value: 'savings' }]);
    const second = await world.sandbox.control.seedRfi({ userId });
    const list = await rfiCall('GET', `/v1/rfis?user_id=${userId}&limit=10`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.rfis).toHaveLength(2);
    for (const entry of list.body.rfis) {
      // evidence §7 [T1 KiraApiClient, AnswerRfiService]: entries may lack items; here none has them.
      expect(entry).not.toHaveProperty('items');
      const detail = (await rfiCall('GET', `/v1/rfis/${entry.rfi_id}`)).body;
      const { items, ...parent } = detail;
      expect(entry).toEqual(parent);
      expect(items.length).toBeGreaterThan(0);
    }
    expect(list.body.rfis.map((e: { rfi_id: string }) => e.rfi_id).sort()).toEqual(
      [rfi.rfiId, second.rfiId].sort(),
    );
    const answered = (await rfiCall('GET', `/v1/rfis/${rfi.rfiId}`)).body.items.find(
      (i: { item_id: string }) => i.item_id === t.choice,
    );
    expect(answered).toMatchObject({ status: 'answered', answer_value: 'savings' });
  });

  it('PATCH answers named items only: answered, answer_value, updated_at; target_key written to the user', async () => {
    const t = rfi.itemIdsByType;
    const answer = await patch([
      { item_id: t.choice, answer_value: 'savings' },
      { item_id: t.number, answer_value: 1500 },
      { item_id: t.boolean, answer_value: false },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((i: { item_id: string }) => i.item_id)).toEqual([
      t.choice,
      t.number,
      t.boolean,
    ]);
    for (const item of answer.body.items)
      expect(item).toMatchObject({ status: 'answered', updated_at: expect.any(String), review_note: null });
    expect(answer.body.items[2].answer_value).toBe(false);
    expect((await getItem(t.text_short!)).status).toBe('pending');
    const user = await world.api.call('GET', `/v1/users/${userId}`);
    expect(user.body.source_of_funds).toBe('savings');
  });

  it('all or nothing: one bad item refuses the call with per-item errors and nothing is saved', async () => {
    const t = rfi.itemIdsByType;
    const stranger = crypto.randomUUID();
    const answer = await patch([
      { item_id: t.choice, answer_value: 'salary' },
      { item_id: t.text_short, answer_value: 'x'.repeat(51) },
      { item_id: t.document, answer_value: 'file.pdf' },
      { item_id: stranger, answer_value: 'x' },
      { item_id: t.identifier, answer_value: '12' },
    ]);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      errors: [
        { item_id: t.text_short, message: expect.stringContaining('maximum length') },
        { item_id: t.document, message: expect.stringContaining('upload') },
        { item_id: stranger, message: expect.any(String) },
        { item_id: t.identifier, message: expect.stringContaining('ein') },
      ],
    });
    expect(await getItem(t.choice!)).toMatchObject({ status: 'pending', answer_value: null });
    expect((await world.api.call('GET', `/v1/users/${userId}`)).body.source_of_funds).toBe('business_income');
  });

  it('invalid bodies are 400 validation_error; a malformed rfi_id is 400; unknown RFI 404', async () => {
    for (const body of [
      {},
      { items: [] },
      { items: 'x' },
      { items: [{ item_id: 'nope', answer_value: 1 }] },
      { items: [{ item_id: rfi.itemIds[0], answer_value: null }] },
    ]) {
      const answer = await rfiCall('PATCH', `/v1/rfis/${rfi.rfiId}/items`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('validation_error');
    }
    expect((await rfiCall('PATCH', '/v1/rfis/not-a-uuid/items', { items: [] })).status).toBe(400);
    const unknown = await rfiCall('GET', `/v1/rfis/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
  });

  it('a returned item carries returned_at and review_note; answering again clears the note and moves updated_at', async () => {
    const id = rfi.itemIdsByType.text_long!;
    const first = (await patch([{ item_id: id, answer_value: 'We sell widgets.' }])).body.items[0];
    const returned = await world.sandbox.control.returnRfiItem(
      rfi.rfiId,
      id,
      'Please describe your customers too.',
    );
    expect(returned).toMatchObject({
      returned_at: expect.any(String),
      review_note: 'Please describe your customers too.',
    });
    const read = await getItem(id);
    expect(read).toMatchObject({
      review_note: 'Please describe your customers too.',
      returned_at: returned.returned_at,
    });
    const second = (await patch([{ item_id: id, answer_value: 'We sell widgets to retailers.' }])).body
      .items[0];
    expect(second).toMatchObject({
      status: 'answered',
      review_note: null,
      returned_at: returned.returned_at,
      answer_value: 'We sell widgets to retailers.',
    });
    expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    const third = (await patch([{ item_id: id, answer_value: 'We sell widgets to retailers.' }])).body
      .items[0];
    expect(Date.parse(third.updated_at)).toBeGreaterThan(Date.parse(second.updated_at));
  });

  it('a closed RFI (resolved, not_resolved) answers 409 conflict; withdrawn or another client’s answers 404', async () => {
    const item = { item_id: rfi.itemIdsByType.boolean, answer_value: true };
    for (const status of ['resolved', 'not_resolved'] as const) {
      await world.sandbox.control.setRfiStatus(rfi.rfiId, status);
      const answer = await patch([item]);
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('conflict');
      expect((await rfiCall('GET', `/v1/rfis/${rfi.rfiId}`)).status).toBe(200);
    }
    await world.sandbox.control.setRfiStatus(rfi.rfiId, 'withdrawn');
    expect((await patch([item])).status).toBe(404);
    expect((await rfiCall('GET', `/v1/rfis/${rfi.rfiId}`)).status).toBe(404);
    expect((await rfiCall('GET', '/v1/rfis')).body.total).toBe(0);

    const fresh = await world.sandbox.control.seedRfi({ userId, items: [{ answer_type: 'boolean' }] });
    const other = await new Api(
      world.sandbox.sandboxBaseUrl,
      await world.sandbox.control.createClient(),
    ).login();
    const foreign = await other.call('PATCH', `/v1/rfis/${fresh.rfiId}/items`, {
      version: V,
      body: { items: [{ item_id: fresh.itemIds[0], answer_value: true }] },
    });
    expect(foreign.status).toBe(404);
    const unauthenticated = await world.api.call('PATCH', `/v1/rfis/${fresh.rfiId}/items`, {
      version: V,
      auth: false,
      body: { items: [] },
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.code).toBe('invalid_request');
  });

  it('the RFI becomes answered once every item is; display_name follows the stored person', async () => {
    const small = await world.sandbox.control.seedRfi({
      userId,
      items: [
        { answer_type: 'text_short', answer_spec: { max_length: 10 } },
        { answer_type: 'date', subject: { person_id: 'gone', display_name: 'Old Name' } },
      ],
    });
    const got = (await world.api.call('GET', `/v1/rfis/${small.rfiId}`, { version: V })).body;
    expect(got.items[1].subject).toEqual({ person_id: 'gone', display_name: null });
    await world.api.call('PATCH', `/v1/rfis/${small.rfiId}/items`, {
      version: V,
      body: {
        items: [
          { item_id: small.itemIds[0], answer_value: 'Acme' },
          { item_id: small.itemIds[1], answer_value: '1980-01-01' },
        ],
      },
    });
    expect((await world.api.call('GET', `/v1/rfis/${small.rfiId}`, { version: V })).body.status).toBe(
      'answered',
    );
  });
});

describe('sandbox: RFI seeding needs a user', () => {
  it('refuses an unknown user', async () => {
    const world = await startWorld();
    try {
      await expect(world.sandbox.control.seedRfi({ userId: crypto.randomUUID() })).rejects.toThrow(
        'unknown user',
      );
      const user = await world.api.call('POST', '/v1/users', { body: individual() });
      await expect(
        world.sandbox.control.seedRfi({
          userId: user.body.id,
          items: [{ answer_type: 'bogus' as never }],
        }),
      ).rejects.toThrow('answer_type');
    } finally {
      await stopWorld(world);
    }
  });
});

describe('sandbox: rfi.* events (weak, opt-in rfiEvents)', () => {
  it('sends rfi.created on seeding and rfi.not_resolved with to_status and resolution_reason, without items', async () => {
    const world = await startWorld({ rfiEvents: true });
    try {
      const user = await world.api.call('POST', '/v1/users', { body: individual() });
      const rfi = await world.sandbox.control.seedRfi({ userId: user.body.id });
      await world.sandbox.control.setRfiStatus(rfi.rfiId, 'not_resolved');
      await world.sandbox.control.flushWebhooks();
      const created = world.receiver.events('rfi.created');
      const closed = world.receiver.events('rfi.not_resolved');
      expect(created.map((e) => e.body.data.rfi_id)).toEqual([rfi.rfiId]);
      expect(closed[0].body.data).toMatchObject({
        rfi_id: rfi.rfiId,
        to_status: 'not_resolved',
        resolution_reason: expect.any(String),
      });
      expect(closed[0].body.data).not.toHaveProperty('items');
    } finally {
      await stopWorld(world);
    }
  });

  it('an RFI past its due_at closes not_resolved / expired when next read: answers refused, one rfi.not_resolved (evidence §7)', async () => {
    const world = await startWorld({ rfiEvents: true });
    try {
      const user = await world.api.call('POST', '/v1/users', { body: individual() });
      const dueAt = new Date(Date.now() - 60_000).toISOString();
      const late = await world.sandbox.control.seedRfi({ userId: user.body.id, dueAt });
      const call = (method: string, path: string, body?: unknown) =>
        world.api.call(method, path, { body, version: V });
      const listed = await call('GET', `/v1/rfis?user_id=${user.body.id}&limit=10`);
      expect(listed.body.rfis[0]).toMatchObject({
        rfi_id: late.rfiId,
        status: 'not_resolved',
        resolution_reason: 'expired',
        due_at: dueAt, // never extended
      });
      const [itemId] = Object.values(late.itemIdsByType);
      const answer = await call('PATCH', `/v1/rfis/${late.rfiId}/items`, {
        items: [{ item_id: itemId, answer_value: 'x' }],
      });
      expect(answer.status).toBe(409);
      expect((await call('GET', `/v1/rfis/${late.rfiId}`)).body.status).toBe('not_resolved');
      await world.sandbox.control.flushWebhooks();
      expect(world.receiver.events('rfi.not_resolved').map((e) => e.body.data)).toEqual([
        expect.objectContaining({
          rfi_id: late.rfiId,
          to_status: 'not_resolved',
          resolution_reason: 'expired',
        }),
      ]);
    } finally {
      await stopWorld(world);
    }
  });

  it('sends none by default', async () => {
    const world = await startWorld();
    try {
      const user = await world.api.call('POST', '/v1/users', { body: individual() });
      const rfi = await world.sandbox.control.seedRfi({ userId: user.body.id });
      await world.sandbox.control.setRfiStatus(rfi.rfiId, 'resolved');
      await world.sandbox.control.flushWebhooks();
      expect(world.receiver.received.filter((r) => r.body.event.startsWith('rfi.'))).toEqual([]);
    } finally {
      await stopWorld(world);
    }
  });
});
