import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import {
  PartnerConflictError,
  PartnerIdempotencyConflictError,
  PartnerNotFoundError,
} from '@partner-payments/nestjs/errors';
import type { CreatePartnerRecipientInput } from '@partner-payments/nestjs/models';
import { parsePartnerTimestamp } from '../../libs/partner-payments/src/resources/shared/timestamp.util';
import {
  fundedSetup,
  individual,
  startClientWorld,
  stopClientWorld,
  usAddress,
  wireAccount,
  wireRecipient,
  type ClientWorld,
} from './client.fixture';

const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** One typed input per rail the evidence confirms (evidence §4): these compile against the union. */
function inputs(userId: string): Record<string, CreatePartnerRecipientInput> {
  const names = { user_id: userId, first_name: 'Rosa', last_name: 'Payee' };
  const bank = {
    routing_number: '021000021',
    account_number: '000123456789',
    bank_name: 'Sandbox Bank',
    bank_address: '270 Park Ave, New York, NY 10017, US',
    doc_type: 'ein' as const,
    doc_number: '12-3456789',
  };
  return {
    WIRE: wireRecipient(userId),
    ACH: {
      ...names,
      email: 'r@example.com',
      address: usAddress(),
      account: { account_type: 'ACH', ...bank },
    },
    INSTANT_PAY: {
      ...names,
      email: 'r@example.com',
      address: usAddress(),
      account: { account_type: 'INSTANT_PAY', ...bank },
    },
    SWIFT: {
      ...names,
      email: 'r@example.com',
      phone: '+34911234567',
      address: { street_name: 'Gran Via 1', city: 'Madrid', postal_code: '28013', country: 'ES' },
      account: {
        account_type: 'SWIFT',
        account_number: 'ES9121000418450200051332',
        swift_code: 'CAIXESBB',
        bank_name: 'CaixaBank',
        bank_address: { street_name: 'Calle Pintor Sorolla 2', city: 'Valencia', country: 'ES' },
      },
    },
    SPEI: { ...names, account: { account_type: 'SPEI', clabe: '002010077777777771', bank_name: 'Banamex' } },
    WALLET: {
      ...names,
      account: { account_type: 'WALLET', address: TRON_ADDRESS, network: 'tron', token: 'USDT' },
    },
    SVUSD: {
      ...names,
      account: {
        account_type: 'SVUSD',
        account_number: '0012345678',
        bank_code: '001',
        bank_name: 'Banco Agricola',
        doc_type: 'dui',
        doc_number: '012345678',
        doc_country_code: 'SV',
      },
    },
  };
}

describe('client: recipients and idempotency conflicts against the sandbox (real socket)', () => {
  let world: ClientWorld;
  beforeEach(async () => {
    world = await startClientWorld({}, { rateLimit: false });
  });
  afterEach(() => stopClientWorld(world));
  const client = () => world.graph.client;
  const recipientPosts = async () =>
    (await world.sandbox.control.requestLog()).filter((e) => e.route === 'POST /v1/recipients').length;

  it('creates every confirmed rail and reads each back with the partner’s fields', async () => {
    const user = await client().users.create(individual());
    for (const [rail, input] of Object.entries(inputs(user.userId))) {
      const created = await client().recipients.create(input);
      expect({ rail, type: created.account_type }).toEqual({ rail, type: rail });
      expect(created.recipient_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(created).not.toHaveProperty('user_id');
      expect(parsePartnerTimestamp(created.created_ts)).toBeInstanceOf(Date);
      const read = await client().recipients.get(created.recipient_id);
      expect(read.recipient_id).toBe(created.recipient_id);
    }
    const list = await client().recipients.list(user.userId);
    expect(list.total).toBe(7);
    const wallet = list.recipients.find((r) => r.account_type === 'WALLET');
    expect(wallet).toMatchObject({ type: 'individual', account_details: { network: 'tron', token: 'USDT' } });
  });

  it('refuses bad input before any I/O, naming every field (PartnerLocalValidationError)', async () => {
    const user = await client().users.create(individual());
    const base = inputs(user.userId);
    const cases: [string, unknown, string[]][] = [
      [
        'WIRE without email, address and bank_address',
        {
          ...base.WIRE,
          email: undefined,
          address: undefined,
          account: { ...wireAccount(), bank_address: undefined },
        },
        ['email', 'address', 'account.bank_address'],
      ],
      [
        'alpha-3 countries',
        {
          ...base.WIRE,
          address: { ...usAddress(), country: 'USA' },
          account: { ...wireAccount(), doc_country_code: 'USA' },
        },
        ['address.country', 'account.doc_country_code'],
      ],
      [
        'doc_type ssn',
        { ...base.WIRE, account: { ...wireAccount(), doc_type: 'ssn' } },
        ['account.doc_type'],
      ],
      ['SWIFT without phone', { ...base.SWIFT, phone: undefined }, ['phone']],
      [
        'SWIFT short account number and 9-character swift_code',
        {
          ...base.SWIFT,
          account: { ...(base.SWIFT.account as object), account_number: 'ES1', swift_code: 'CAIXESBB1' },
        },
        ['account.account_number', 'account.swift_code'],
      ],
      [
        'USDC on tron and a bad TRON address',
        {
          ...base.WALLET,
          account: { account_type: 'WALLET', address: 'T123', network: 'tron', token: 'USDC' },
        },
        ['account.token', 'account.address'],
      ],
      [
        'an unknown account_type',
        { ...base.WIRE, account: { ...wireAccount(), account_type: 'CHEQUE' } },
        ['account.account_type'],
      ],
      ['the old flat body', { user_id: user.userId, first_name: 'A', last_name: 'B' }, ['account']],
      ['a business without company_name', { ...base.SPEI, type: 'business' }, ['company_name']],
      [
        'SVUSD doc_type of another country',
        { ...base.SVUSD, account: { ...(base.SVUSD.account as object), doc_type: 'cpf' } },
        ['account.doc_type'],
      ],
      ['user_id that is not a UUID', { ...base.SPEI, user_id: 'u-1' }, ['user_id']],
      [
        'ACH fields the partner drops silently (evidence §11 N26)',
        {
          ...base.ACH,
          account: {
            ...(base.ACH.account as object),
            country: 'US',
            currency: 'USD',
            swift_code: 'CHASUS33',
          },
        },
        ['account.country', 'account.currency', 'account.swift_code'],
      ],
    ];
    for (const [name, input, fields] of cases) {
      const err = await client()
        .recipients.create(input as CreatePartnerRecipientInput)
        .catch((e: unknown) => e);
      expect({ name, local: err instanceof PartnerLocalValidationError }).toEqual({ name, local: true });
      expect({
        name,
        fields: (err as PartnerLocalValidationError).fieldErrors.map((f) => f.field).sort(),
      }).toEqual({
        name,
        fields: [...fields].sort(),
      });
    }
    await expect(client().recipients.get('not-a-uuid')).rejects.toBeInstanceOf(PartnerLocalValidationError);
    await expect(client().recipients.list('u-1')).rejects.toBeInstanceOf(PartnerLocalValidationError);
    expect(await recipientPosts()).toBe(0);
  });

  it('reads the round-2 shapes: ACH without type is individual, SPEI rfc with MX, a missing id names itself (evidence §11 N12, N26, N27)', async () => {
    const user = await client().users.create(individual());
    const base = inputs(user.userId);
    const ach = await client().recipients.create(base.ACH);
    expect(ach.type).toBe('individual');
    expect(Object.keys(ach.account_details).sort()).toEqual(
      ['account_number', 'bank_address', 'bank_name', 'doc_number', 'doc_type', 'routing_number'].sort(),
    );
    const spei = await client().recipients.create({
      ...base.SPEI,
      account: {
        account_type: 'SPEI',
        clabe: '002010077777777771',
        bank_name: 'Banamex',
        doc_type: 'rfc',
        doc_number: 'XAXX010101000',
      },
    });
    expect(spei.account_details).toEqual({
      clabe: '002010077777777771',
      doc_type: 'rfc',
      doc_number: 'XAXX010101000',
      doc_country_code: 'MX',
    });
    const missingId = crypto.randomUUID();
    const missing = await client()
      .recipients.get(missingId)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PartnerNotFoundError);
    expect((missing as PartnerNotFoundError).message).toContain(`Recipient with ID ${missingId} not found`);
  });

  it('same key and body → the same recipient; another body → PartnerIdempotencyConflictError, sent once', async () => {
    const user = await client().users.create(individual());
    const key = crypto.randomUUID();
    const first = await client().recipients.createOrGet(wireRecipient(user.userId), { idempotencyKey: key });
    const replay = await client().recipients.createOrGet(wireRecipient(user.userId), { idempotencyKey: key });
    expect(first.created).toBe(true);
    expect(replay.recipient).toEqual(first.recipient);
    const err = await client()
      .recipients.create(wireRecipient(user.userId, { first_name: 'Other' }), {
        idempotencyKey: key,
        maxRetries: 3,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerIdempotencyConflictError);
    expect(err).toBeInstanceOf(PartnerConflictError);
    expect(err).toMatchObject({ status: 409, code: 'idempotency_conflict', idempotencyKey: key });
    expect((err as Error).message).toMatch(
      /Idempotency-Key .* was already used with a different request body/,
    );
    expect(await recipientPosts()).toBe(3);
    expect((await world.sandbox.control.counters()).created.recipients).toBe(1);
  });

  it('every de-duplicating route surfaces a reused key with another body as PartnerIdempotencyConflictError', async () => {
    const ids = await fundedSetup(world);
    const key = () => ({ idempotencyKey: crypto.randomUUID() });
    const twice = async (call: (variant: number, opts: { idempotencyKey: string }) => Promise<unknown>) => {
      const opts = key();
      await call(1, opts);
      return call(2, opts).catch((e: unknown) => e);
    };
    const results = {
      users: await twice((v, o) => client().users.create(individual({ first_name: `A${v}` }), o)),
      recipients: await twice((v, o) =>
        client().recipients.create(wireRecipient(ids.userId, { last_name: `P${v}` }), o),
      ),
      virtualAccounts: await twice((v, o) =>
        client().virtualAccounts.create({ user_id: ids.userId, bank: v === 1 ? 'bank_b' : 'bank_c' }, o),
      ),
      payouts: await twice((v, o) =>
        client().payouts.create(
          ids.vaId,
          { amount: `${v}.00`, currency: 'USD', recipient_id: ids.recipientId },
          o,
        ),
      ),
    };
    for (const [route, err] of Object.entries(results))
      expect({ route, conflict: err instanceof PartnerIdempotencyConflictError }).toEqual({
        route,
        conflict: true,
      });
  });

  it('reads: a missing recipient and an unknown user are typed 404s', async () => {
    await expect(client().recipients.get(crypto.randomUUID())).rejects.toBeInstanceOf(PartnerNotFoundError);
    await expect(client().recipients.list(crypto.randomUUID())).rejects.toBeInstanceOf(PartnerNotFoundError);
  });

  it('lists with a metadata filter that reaches the server; a bad filter key is refused locally', async () => {
    const user = await client().users.create(individual());
    const ops = await client().recipients.create(wireRecipient(user.userId, { metadata: { team: 'ops' } }));
    await client().recipients.create(
      wireRecipient(user.userId, { metadata: { team: 'sales' }, account: wireAccount('4444') }),
    );
    const listed = await client().recipients.list(user.userId, { metadata: { team: 'ops' } });
    expect(listed).toEqual({
      recipients: [expect.objectContaining({ recipient_id: ops.recipient_id })],
      total: 1,
    });
    await expect(client().recipients.list(user.userId, { metadata: { 'a]': 'x' } })).rejects.toBeInstanceOf(
      PartnerLocalValidationError,
    );
  });
});
