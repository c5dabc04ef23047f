import { individual, startWorld, stopWorld, usAddress, wireRecipient, type World } from '../sandbox.fixture';
import { TRON_ADDRESS, railBodies, type Body } from '../recipient-bodies.fixture';

/**
 * The sandbox's recipients against the partner's raw captures (evidence §11 N15, N24-N30). Raw
 * bodies, sent as the captures show them.
 */
describe('sandbox: recipients as the raw captures show them (evidence §11 N15, N24-N30)', () => {
  let world: World;
  let userId: string;
  const post = (body: unknown, idempotencyKey?: string | false) =>
    world.api.call('POST', '/v1/recipients', { body, idempotencyKey });
  beforeEach(async () => {
    world = await startWorld();
    userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id;
  });
  afterEach(() => stopWorld(world));

  it('N15: one 400 lists every field at fault, each with its Zod code', async () => {
    const ach = railBodies(userId).ACH;
    const answer = await post({
      ...ach,
      address: { ...usAddress(), country: 'USA' },
      account: { ...(ach.account as Body), doc_type: 'ssn' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid request data');
    expect(answer.body.details).toEqual(
      expect.arrayContaining([
        { path: 'address.country', message: 'Country must be a 2-character ISO code', code: 'too_big' },
        {
          path: 'account.doc_type',
          message: "Invalid enum value. Expected 'id' | 'dni' | 'passport' | 'ein', received 'ssn'",
          code: 'invalid_enum_value',
        },
      ]),
    );
    expect(answer.body.details).toHaveLength(2);
  });

  it('N24: the list ignores limit and offset and answers every recipient', async () => {
    for (let i = 0; i < 3; i++) expect((await post(wireRecipient(userId))).status).toBe(201);
    for (const query of [
      'limit=0',
      'limit=-1',
      'limit=1',
      'limit=100000',
      'offset=9999',
      'limit=1&offset=2',
    ]) {
      const answer = await world.api.call('GET', `/v1/recipients?user_id=${userId}&${query}`);
      expect({
        query,
        status: answer.status,
        total: answer.body.total,
        rows: answer.body.recipients?.length,
      }).toEqual({
        query,
        status: 200,
        total: 3,
        rows: 3,
      });
    }
  });

  it('N25: ten parallel creates with one key and one body → ten 201s naming one recipient', async () => {
    const key = crypto.randomUUID();
    const body = wireRecipient(userId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.recipient_id)).size).toBe(1);
    expect((await world.sandbox.control.counters()).created.recipients).toBe(1);
  });

  it('N25: ten parallel creates with one key and changed bodies → one 201 and nine 409 IDEMPOTENCY_CONFLICT', async () => {
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(wireRecipient(userId, { first_name: `Payee${i}` }), key)),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(9);
    for (const c of conflicts)
      expect(c.body.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', details: {} });
    expect((await world.sandbox.control.counters()).created.recipients).toBe(1);
  });

  it('N25: ten parallel creates with fresh keys and one body → ten recipients (no de-duplication by content)', async () => {
    const body = wireRecipient(userId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(body)));
    expect(new Set(answers.map((a) => a.body.recipient_id)).size).toBe(10);
  });

  it('N26: ACH without type → individual; account currency and country are dropped from account_details', async () => {
    const ach = railBodies(userId).ACH;
    const created = await post({
      ...ach,
      account: { ...(ach.account as Body), currency: 'USD', country: 'US' },
    });
    expect(created.status).toBe(201);
    expect(created.body.type).toBe('individual');
    expect(Object.keys(created.body.account_details).sort()).toEqual(
      [
        'account_number',
        'bank_address',
        'bank_name',
        'doc_number',
        'doc_type',
        'routing_number',
        'type',
      ].sort(),
    );
  });

  it('N27: SPEI takes doc_type rfc and answers doc_country_code MX even when account.country says USA', async () => {
    const spei = railBodies(userId).SPEI;
    const created = await post({
      ...spei,
      account: { ...(spei.account as Body), doc_type: 'rfc', doc_number: 'XAXX010101000', country: 'USA' },
    });
    expect(created.status).toBe(201);
    expect(created.body.account_details).toEqual({
      clabe: '002010077777777771',
      doc_type: 'rfc',
      doc_number: 'XAXX010101000',
      doc_country_code: 'MX',
    });
  });

  it('N28: a TRON address that fails base58check → the partner message on account.address, code custom', async () => {
    const wallet = railBodies(userId).WALLET;
    const answer = await post({
      ...wallet,
      account: { ...(wallet.account as Body), address: `${TRON_ADDRESS.slice(0, -1)}u` },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([
      {
        path: 'account.address',
        message: 'Tron wallet address must start with T and be 34 characters long (base58check encoded)',
        code: 'custom',
      },
    ]);
  });

  it('N29: PostgreSQL text timestamps drop trailing zeros, so the fraction varies in length', async () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 200 && lengths.size < 2; i++) {
      const { body } = await post(wireRecipient(userId));
      const m = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.(\d{1,6}))?\+00$/.exec(body.created_ts);
      expect({ ts: body.created_ts, ok: m !== null }).toEqual({ ts: body.created_ts, ok: true });
      expect(m?.[1] ?? '').not.toMatch(/0$/);
      lengths.add((m?.[1] ?? '').length);
    }
    expect(lengths.size).toBeGreaterThan(1);
  });

  it('N30: no Idempotency-Key → Zod detail on idempotency-key, "Required", invalid_type', async () => {
    const answer = await post(wireRecipient(userId), false);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        error: 'Invalid request data',
        details: [{ path: 'idempotency-key', message: 'Required', code: 'invalid_type' }],
      },
    });
  });
});
