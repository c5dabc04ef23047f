/**
 * The typed users client against the sandbox answering as the partner does (evidence §3): flat
 * names, strict PUT, the Zod 400 mapped to fieldErrors, no instant verification, and a
 * verification call never sent twice.
 */
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import {
  PartnerConnectionError,
  PartnerNotFoundError,
  PartnerValidationError,
} from '@partner-payments/nestjs/errors';
import type { UpdatePartnerUserInput } from '@partner-payments/nestjs/models';
import { business, individual, startClientWorld, stopClientWorld, type ClientWorld } from './client.fixture';

describe('users client against the sandbox (evidence §3)', () => {
  let world: ClientWorld;
  beforeEach(async () => {
    world = await startClientWorld({ defaultUserMetadata: { tenant: 'acme' } }, { rateLimit: false });
  });
  afterEach(() => stopClientWorld(world));
  const users = () => world.graph.client.users;
  const count = async (route: string) => (await world.sandbox.control.counters()).requests[route] ?? 0;

  it('create sends the flat fields and reads the partner answer: id, CREATED, trigger flag, products, renamed address, dates', async () => {
    const user = await users().create(individual({ external_id: 'crm-7' }));
    expect(user).toMatchObject({
      type: 'individual',
      status: 'CREATED',
      verificationStatus: 'unverified',
      verificationTriggered: true,
      externalId: 'crm-7',
      // evidence §11 C4: the create answer carries missing_fields by product code, no general
      missingFields: {
        'usa-virtual-accounts': [],
        'usa-virtual-accounts-act': expect.arrayContaining(['employment_status']),
      },
      residentialAddress: {
        streetLine1: '1 Main St',
        subdivision: 'TX',
        postalCode: '78701',
        country: 'USA',
      },
      metadata: { tenant: 'acme' },
    });
    expect(user.userId).toBe(user.raw.id);
    // evidence §11 C3: keyed on productCode, productId opaque; each list from the top-level dict
    const product = (code: string) => user.eligibleProducts.find((p) => p.productCode === code);
    expect(user.eligibleProducts).toHaveLength(13);
    expect(product('usa-virtual-accounts')).toMatchObject({ eligible: false, missingFields: [] });
    expect(product('usa-virtual-accounts')?.productId).not.toBe('usa-virtual-accounts');
    expect(product('usa-virtual-accounts-act')?.missingFields).toEqual(
      expect.arrayContaining(['employment_status']),
    );
    expect(user.createdAt).toBeInstanceOf(Date);
    const log = await world.sandbox.control.requestLog();
    expect(log.filter((e) => e.route === 'POST /v1/users')).toHaveLength(1);

    // It is not verified: the partner stops in REVIEW; its staff (the control) decide.
    const read = await users().get(user.userId);
    expect(read).toMatchObject({ status: 'REVIEW', verificationTriggered: null });
    expect(read.missingFields).toMatchObject({ 'usa-virtual-accounts': [], general: expect.any(Array) });
    await world.sandbox.control.setUserVerificationOutcome(user.userId, 'approved');
    const verified = await users().get(user.userId);
    expect(verified.status).toBe('VERIFIED');
    expect(verified.eligibleProducts.find((p) => p.productCode === 'usa-virtual-accounts')?.eligible).toBe(
      true,
    );
  });

  it('update is a strict PUT: only the fields sent, the answer with updatedFields and requiresReverification', async () => {
    const user = await users().create(business());
    const result = await users().update(user.userId, {
      business_legal_name: 'Acme Holdings LLC',
      business_industry: ['software_publishers', 'data_processing_hosting_related_services'],
      metadata: { a: '1' },
    });
    expect(result).toMatchObject({
      userId: user.userId,
      updatedFields: ['business_legal_name', 'business_industry', 'metadata'],
      requiresReverification: true,
      warnings: [],
      registeredAddress: { streetLine1: '500 Market St' },
    });
    expect(await count('PUT /v1/users/:id')).toBe(1);
    const empty = await users().update(user.userId, {});
    expect(empty).toMatchObject({ updatedFields: [], requiresReverification: false });
  });

  it('refuses before I/O what the partner refuses, naming the field: address object, alpha-2, type on PUT, metadata over 500 UTF-16 units', async () => {
    const cases: Array<[() => Promise<unknown>, string[]]> = [
      [() => users().create({ ...individual(), address: { city: 'Austin' } } as never), ['address']],
      [
        () => users().create(individual({ nationality: 'US', address_country: 'US' })),
        ['nationality', 'address_country'],
      ],
      [() => users().create(business({ business_industry: 'technology' as never })), ['business_industry']],
      [() => users().create(individual({ metadata: { vip: true } as never })), ['metadata.vip']],
      [() => users().create(individual({ metadata: { k: '😀'.repeat(251) } })), ['metadata.k']],
      [() => users().update('6f1c4a4e-0000-4000-8000-000000000000', { type: 'business' } as never), ['type']],
      [
        () => users().update('6f1c4a4e-0000-4000-8000-000000000000', { external_id: 'x' } as never),
        ['external_id'],
      ],
      [
        () =>
          users().update('6f1c4a4e-0000-4000-8000-000000000000', {
            representative_date_of_birth: 'x',
          } as UpdatePartnerUserInput),
        ['representative_date_of_birth'],
      ],
    ];
    for (const [call, expected] of cases) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PartnerLocalValidationError);
      expect((error as PartnerLocalValidationError).fieldErrors.map((f) => f.field)).toEqual(expected);
    }
    const counters = await world.sandbox.control.counters();
    expect(counters.requests['POST /v1/users'] ?? 0).toBe(0);
    expect(counters.requests['PUT /v1/users/:id'] ?? 0).toBe(0);
  });

  it("the partner's Zod 400 arrives as PartnerValidationError with fieldErrors (the merged defaults break the 50-entry limit, which only the partner knows)", async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const error = await users()
      .create(individual({ metadata: fifty }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerValidationError);
    expect((error as PartnerValidationError).status).toBe(400);
    expect((error as PartnerValidationError).fieldErrors).toEqual([
      { field: 'metadata', message: expect.stringContaining('at most 50 entries') },
    ]);
    const malformed = await users()
      .get('not-a-uuid')
      .catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(PartnerValidationError);
    // evidence §11 N11, N10: the malformed id is named user_id; the 404 message repeats the id
    expect((malformed as PartnerValidationError).fieldErrors).toEqual([
      { field: 'user_id', message: 'Invalid user ID format' },
    ]);
    const missing = await users()
      .get('6f1c4a4e-0000-4000-8000-000000000000')
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PartnerNotFoundError);
    expect((missing as PartnerNotFoundError).message).toContain(
      'User with ID 6f1c4a4e-0000-4000-8000-000000000000 not found',
    );
  });

  it('createVerification: 201 { id, verificationLink, status }, the user unchanged; a reused key with another body makes a second one', async () => {
    const user = await users().create(individual());
    const before = await users().get(user.userId);
    const key = 'a3c1e5f7-1b2d-4e6f-8a9b-0c1d2e3f4a5b';
    const first = await users().createVerification(
      user.userId,
      { type: 'embedded-link', redirect_uri: 'https://app.example/a' },
      { idempotencyKey: key },
    );
    expect(first).toMatchObject({
      id: expect.any(String),
      verificationLink: expect.stringMatching(/^https:/),
      status: 'pending',
    });
    const same = await users().createVerification(
      user.userId,
      { type: 'embedded-link', redirect_uri: 'https://app.example/a' },
      { idempotencyKey: key },
    );
    expect(same.id).toBe(first.id); // same key, same body: the answer replayed (DRIFT-16)
    const second = await users().createVerification(
      user.userId,
      { type: 'embedded-link', redirect_uri: 'https://app.example/b' },
      { idempotencyKey: key },
    );
    expect(second.id).not.toBe(first.id); // same key, another body: a second verification
    expect((await world.sandbox.control.counters()).created.verifications).toBe(2);
    const after = await users().get(user.userId);
    expect(after.status).toBe(before.status); // DRIFT-17: nothing changes on the user
    await expect(users().createVerification(user.userId, { method: 'api' } as never)).rejects.toBeInstanceOf(
      PartnerLocalValidationError,
    );
  });

  it('a verification whose answer is lost is never sent again, even with retries on and a key (the partner does not de-duplicate it)', async () => {
    const user = await users().create(individual());
    await world.sandbox.control.addFault({
      kind: 'accepted_then_reset',
      route: 'POST /v1/users/:id/verifications',
    });
    await expect(
      users().createVerification(user.userId, { type: 'api' }, { maxRetries: 3 }),
    ).rejects.toBeInstanceOf(PartnerConnectionError);
    expect(await count('POST /v1/users/:id/verifications')).toBe(1);
    expect((await world.sandbox.control.counters()).created.verifications).toBe(1);
    // the same lost answer on POST /v1/users (de-duplicated by key) is retried and creates one user
    await world.sandbox.control.addFault({ kind: 'accepted_then_reset', route: 'POST /v1/users' });
    const again = await users().create(individual(), { maxRetries: 3 });
    expect(again.userId).toBeTruthy();
    expect(await count('POST /v1/users')).toBe(3);
    expect((await world.sandbox.control.counters()).created.users).toBe(2);
  });

  it('liveness links: the same link on a repeat call, a new one when redirect changes, 422 before verification is triggered', async () => {
    const user = await users().create(business());
    const first = await users().createLivenessLink(user.userId, { redirect: 'https://app.example/a' });
    expect(first).toEqual([
      {
        referenceId: expect.stringMatching(/^ref_/),
        url: expect.stringMatching(/^https:/),
        expiresAt: expect.any(Date),
        raw: expect.any(Object),
      },
    ]);
    expect(first[0].expiresAt!.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const again = await users().createLivenessLink(user.userId, { redirect: 'https://app.example/a' });
    expect(again[0].url).toBe(first[0].url);
    const moved = await users().createLivenessLink(user.userId, { redirect: 'https://app.example/b' });
    expect(moved[0].url).not.toBe(first[0].url);
    expect(moved[0].referenceId).toBe(first[0].referenceId);
    await expect(users().createLivenessLink(user.userId, { redirect: 'nope' })).rejects.toBeInstanceOf(
      PartnerLocalValidationError,
    );
    const partial = await users().create({
      type: 'individual',
      first_name: 'Min',
      last_name: 'Imal',
      source_of_funds: 'salary',
    });
    const early = await users()
      .createLivenessLink(partial.userId)
      .catch((e: unknown) => e);
    expect(early).toBeInstanceOf(PartnerValidationError);
    expect((early as PartnerValidationError).status).toBe(422);
  });

  it('verification_link mode: the create answer hands out the link as verificationLink (evidence §11 N18)', async () => {
    const user = await users().create(individual({ verification_mode: 'verification_link' }));
    expect(user.verificationMode).toBe('verification_link');
    expect(new URL(user.verificationLink ?? '').protocol).toBe('https:');
    expect((await users().create(individual())).verificationLink).toBeNull();
  });

  it("a caller's key reused after the partner refused the create: PartnerValidationError naming the key (evidence §11 N20)", async () => {
    const key = 'c56de40d-72c1-46c3-93dd-3fa33b8a0590';
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    // Passes the local checks; only the partner knows the account's default keys (spec 2.5).
    const refused = await users()
      .create(individual({ metadata: fifty }), { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PartnerValidationError);
    const reused = await users()
      .create(individual(), { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(PartnerValidationError);
    expect((reused as PartnerValidationError).status).toBe(400);
    expect((reused as PartnerValidationError).message).toContain('Failed to store idempotency key');
    expect((await world.sandbox.control.counters()).created.users ?? 0).toBe(0);
  });
});
