import { startWorld, stopWorld, individual, usAddress, wireAccount, type World } from './sandbox.fixture';
import { SOLANA_ADDRESS, TRON_ADDRESS, railBodies, type Body } from './recipient-bodies.fixture';

describe('sandbox: POST /v1/recipients refuses what the partner refuses (evidence §2 shape Z, §4)', () => {
  let world: World;
  let userId: string;
  const post = (body: unknown) => world.api.call('POST', '/v1/recipients', { body });
  beforeEach(async () => {
    world = await startWorld();
    const user = await world.api.call('POST', '/v1/users', { body: individual() });
    userId = user.body.id ?? user.body.user_id;
  });
  afterEach(() => stopWorld(world));

  /** [case, body, issues expected among details] */
  const refusals = (): [string, Body, { path: string; message?: string | RegExp }[]][] => {
    const b = railBodies(userId);
    const wire = b.WIRE;
    const swift = b.SWIFT;
    const swiftAccount = swift.account as Body;
    return [
      [
        'the old flat body (no account)',
        { user_id: userId, first_name: 'A', last_name: 'B', account_type: 'WIRE' },
        [{ path: 'account', message: 'Required' }],
      ],
      [
        'WIRE without email, address, bank_name, bank_address',
        {
          ...wire,
          email: undefined,
          address: undefined,
          account: { ...wireAccount(), bank_name: undefined, bank_address: undefined },
        },
        [
          { path: 'email', message: 'Required' },
          { path: 'address', message: /structured object .* for ACH\/WIRE\/SWIFT accounts/ },
          { path: 'account.bank_name', message: 'Required' },
          { path: 'account.bank_address', message: 'Required' },
        ],
      ],
      [
        'WIRE bank_address as a string',
        { ...wire, account: { ...wireAccount(), bank_address: '1 Main St' } },
        [{ path: 'account.bank_address', message: 'Expected object, received string' }],
      ],
      [
        'ACH bank_address as an object',
        { ...b.ACH, account: { ...(b.ACH.account as Body), bank_address: usAddress() } },
        [{ path: 'account.bank_address', message: 'Expected string, received object' }],
      ],
      [
        'ACH bank_address over 500',
        { ...b.ACH, account: { ...(b.ACH.account as Body), bank_address: 'x'.repeat(501) } },
        [{ path: 'account.bank_address' }],
      ],
      [
        'INSTANT_PAY address as a string',
        { ...b.INSTANT_PAY, address: '1 Main St' },
        [{ path: 'address', message: /for INSTANT_PAY accounts/ }],
      ],
      [
        'SWIFT without phone and address, short account number, bad swift_code',
        {
          ...swift,
          phone: undefined,
          address: undefined,
          account: { ...swiftAccount, account_number: 'ES1', swift_code: 'CAIXES' },
        },
        [
          { path: 'phone', message: 'Required' },
          { path: 'address', message: /^address is required for SWIFT accounts/ },
          { path: 'account.account_number', message: 'String must contain at least 4 character(s)' },
          { path: 'account.swift_code' },
        ],
      ],
      [
        'alpha-3 countries anywhere on a recipient (DRIFT-26)',
        {
          ...wire,
          address: { ...usAddress(), country: 'USA' },
          account: {
            ...wireAccount(),
            doc_country_code: 'USA',
            bank_address: { street_name: 'x', country: 'USA' },
          },
        },
        [
          { path: 'address.country', message: 'Country must be a 2-character ISO code' },
          { path: 'account.doc_country_code', message: 'Country must be a 2-character ISO code' },
          { path: 'account.bank_address.country', message: 'Country must be a 2-character ISO code' },
        ],
      ],
      [
        'doc_type ssn on a US rail (DRIFT-27)',
        { ...wire, account: { ...wireAccount(), doc_type: 'ssn' } },
        [
          {
            path: 'account.doc_type',
            message: /^Invalid enum value\. Expected 'id' \| 'dni' \| 'passport' \| 'ein', received 'ssn'$/,
          },
        ],
      ],
      [
        'address without street_name',
        { ...wire, address: { city: 'Austin', country: 'US' } },
        [{ path: 'address.street_name', message: 'Required' }],
      ],
      [
        'USDC on tron',
        {
          ...b.WALLET,
          account: { account_type: 'WALLET', address: TRON_ADDRESS, network: 'tron', token: 'USDC' },
        },
        [{ path: 'account.token' }],
      ],
      [
        'a TRON address that fails base58check (DRIFT-28)',
        {
          ...b.WALLET,
          account: {
            account_type: 'WALLET',
            address: `${TRON_ADDRESS.slice(0, -1)}u`,
            network: 'tron',
            token: 'USDT',
          },
        },
        [{ path: 'account.address' }],
      ],
      [
        'a network the partner lacks',
        {
          ...b.WALLET,
          account: { account_type: 'WALLET', address: SOLANA_ADDRESS, network: 'ethereum', token: 'USDC' },
        },
        [{ path: 'account.network', message: /^Invalid enum value/ }],
      ],
      [
        'an unknown account_type',
        { ...wire, account: { ...wireAccount(), account_type: 'CHEQUE' } },
        [{ path: 'account.account_type', message: /^Invalid discriminator value/ }],
      ],
      [
        // evidence §5, §6: ACT is a bank of the partner (the ACT rail: WIRE from that bank's account).
        'ACT, a bank of the partner and not an account type',
        { ...wire, account: { ...wireAccount(), account_type: 'ACT' } },
        [{ path: 'account.account_type', message: /^Invalid discriminator value/ }],
      ],
      [
        'an unknown recipient type',
        { ...wire, type: 'person' },
        [{ path: 'type', message: /^Invalid enum value/ }],
      ],
      [
        'a business without company_name',
        { ...wire, type: 'business' },
        [{ path: 'company_name', message: 'Required' }],
      ],
      [
        'a LATAM doc_country_code of another country',
        { ...b.GTQ, account: { ...(b.GTQ.account as Body), doc_country_code: 'MX' } },
        [{ path: 'account.doc_country_code' }],
      ],
      [
        'a malformed user_id',
        { ...wire, user_id: 'not-a-uuid' },
        [{ path: 'user_id', message: 'Invalid uuid' }],
      ],
    ];
  };

  it('refuses what the partner refuses: 400 in the Zod shape naming each path, nothing created', async () => {
    for (const [name, body, expected] of refusals()) {
      const answer = await post(JSON.parse(JSON.stringify(body)));
      expect({ name, status: answer.status, error: answer.body.error }).toEqual({
        name,
        status: 400,
        error: 'Invalid request data',
      });
      for (const detail of answer.body.details)
        expect(detail).toEqual({
          path: expect.any(String),
          message: expect.any(String),
          code: expect.any(String),
        });
      for (const e of expected) {
        const found = answer.body.details.find((d: { path: string }) => d.path === e.path);
        expect({ name, path: e.path, found: found !== undefined }).toEqual({
          name,
          path: e.path,
          found: true,
        });
        if (e.message)
          expect(found.message).toEqual(
            e.message instanceof RegExp ? expect.stringMatching(e.message) : e.message,
          );
      }
    }
    expect((await world.sandbox.control.counters()).created.recipients).toBe(0);
  });
});
