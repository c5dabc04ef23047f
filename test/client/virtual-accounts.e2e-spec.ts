/**
 * The typed client's virtual-account operations against the sandbox over a real socket
 * (evidence §5): lifecycle, funds readiness, list, balance, deposits,
 * liquidation-address create and the sandbox-only simulate-deposit.
 */
import {
  PartnerLocalValidationError,
  type PartnerDeposit,
  type PartnerVirtualAccount,
} from '@partner-payments/nestjs';
import {
  PartnerSandboxOnlyOperationError,
  PartnerValidationError,
  PartnerVirtualAccountNotActiveError,
} from '@partner-payments/nestjs/errors';
import { canReceiveFunds } from '@partner-payments/nestjs/models';
import {
  createVerifiedUser,
  fundedSetup,
  individual,
  startClientWorld,
  stopClientWorld,
  type ClientWorld,
} from './client.fixture';

describe('client: virtual accounts (evidence §5)', () => {
  let world: ClientWorld;
  beforeAll(async () => (world = await startClientWorld({ authorizedBanks: ['bank_a', 'bank_d'] })));
  afterAll(() => stopClientWorld(world));
  const vas = () => world.graph.client.virtualAccounts;

  it('a new account cannot receive funds until the partner provisions it; balance says why it is refused', async () => {
    const userId = await createVerifiedUser(world);
    const va = await vas().create({ user_id: userId, bank: 'bank_a' });
    const id = String(va.virtual_account_id);
    expect(va.account_number).toBeNull();
    expect(canReceiveFunds(va)).toBe(false);
    const early = await vas()
      .getBalance(id)
      .catch((e: unknown) => e);
    expect(early).toBeInstanceOf(PartnerVirtualAccountNotActiveError);
    expect((early as PartnerVirtualAccountNotActiveError).status).toBe(400);
    expect((early as Error).message).toMatch(/activating/);
    await world.sandbox.control.provisionVirtualAccount(id);
    const opened = await vas().get(id, { apiVersion: '2026-06-01' });
    expect(opened.status).toBe('active');
    expect(canReceiveFunds(opened)).toBe(true);
    expect(await vas().getBalance(id)).toMatchObject({ available_balance: '0.00' });
    const act = await vas().create({ user_id: await createVerifiedUser(world), bank: 'bank_d' });
    expect(act.account_number).toBe('PENDING-ACT-ACCOUNT');
    expect(canReceiveFunds(act)).toBe(false);
    expect(canReceiveFunds({ account_number: '123456789012', status: 'frozen' })).toBe(false);
  });

  it("evidence §11 N31-N33: type US_BANK | MX_SPEI checked before I/O; the partner's refusals arrive with their field or message", async () => {
    const user = await world.graph.client.users.create(individual());
    const made = async () => (await world.sandbox.control.counters()).created.virtual_accounts ?? 0;
    const before = await made();
    const local = (input: Record<string, unknown>) =>
      vas()
        .create({ user_id: user.userId, ...input } as never)
        .catch((e: unknown) => e as PartnerLocalValidationError);
    expect((await local({ type: 'individual', bank: 'bank_a' })).fieldErrors).toEqual([
      { field: 'type', message: 'must be US_BANK or MX_SPEI' },
    ]);
    expect((await local({ type: 'US_BANK' })).fieldErrors).toEqual([
      expect.objectContaining({ field: 'bank' }),
    ]);
    // The sandbox's enum refusal (N32): the field read from the partner's "bank is …" wording.
    const enumError = await local({ type: 'US_BANK', bank: 'ACT' });
    expect(enumError).toBeInstanceOf(PartnerValidationError);
    expect(enumError.fieldErrors).toEqual([
      { field: 'bank', message: expect.stringMatching(/^Invalid enum value\. Expected 'bank_a'/) },
    ]);
    // MX_SPEI needs no bank; the user is not VERIFIED (N33), a 400 standard error.
    const spei = await local({ type: 'MX_SPEI' });
    expect(spei).toBeInstanceOf(PartnerValidationError);
    expect(spei.message).toMatch(/User must be in VERIFIED status .* Current status: (CREATED|REVIEW)/);
    expect(await made()).toBe(before);
  });

  it('simulateDeposit credits the balance; deposits list per account (limit/offset) and across accounts (pages)', async () => {
    const { vaId } = await fundedSetup(world); // 10,000.00 through the control
    const deposit = await vas().simulateDeposit(vaId, { amount: '25.25' });
    expect(deposit).toMatchObject({ deposit_id: expect.any(String), amount: '25.25', status: 'COMPLETED' });
    expect((await vas().simulateDeposit(vaId, { amount: '11' })).status).toBe('REFUNDED');
    expect((await vas().getBalance(vaId)).available_balance).toBe('10025.25');
    const mine = await vas().listDeposits(vaId, { limit: 2, offset: 1 });
    expect(mine.map((d) => d.amount)).toEqual(['25.25', '11.00']);
    const all: PartnerDeposit[] = [];
    for await (const d of vas().iterateDeposits(vaId, { limit: 1 })) all.push(d);
    expect(all).toHaveLength(3);
    const across: PartnerDeposit[] = [];
    for await (const d of vas().iterateAllDeposits({ limit: 2, virtual_account_id: vaId })) across.push(d);
    expect(across.map((d) => d.deposit_id)).toEqual(all.map((d) => d.deposit_id));
    const page = await vas().listAllDeposits({ page: 1, limit: 1 });
    expect(page).toMatchObject({ page: 1, limit: 1, hasMore: true });
  });

  it('lists accounts by offset ({data, pagination:{total, limit, offset, has_more}}) and walks them with the iterator', async () => {
    const userId = await createVerifiedUser(world);
    await vas().create({ user_id: userId, bank: 'bank_a' });
    const page = await vas().list({ user_id: userId });
    expect(page).toMatchObject({ offset: 0, total: 1, hasMore: false });
    expect(page.data[0]).toMatchObject({ user_id: userId, provider: null, currency: null });
    const total = (await vas().list()).total ?? -1;
    expect(total).toBeGreaterThanOrEqual(2); // the world's funded setup made one too
    const second = await vas().list({ limit: 1, offset: 1 });
    expect(second).toMatchObject({ offset: 1, limit: 1, total, hasMore: total > 2 });
    const before = (await world.sandbox.control.requestLog()).length;
    const seen: PartnerVirtualAccount[] = [];
    for await (const va of vas().iterate({ limit: 1 })) seen.push(va);
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((v) => v.virtual_account_id)).size).toBe(seen.length);
    expect(seen[1].virtual_account_id).toBe(second.data[0].virtual_account_id);
    // One call a row (limit 1), the last answering has_more false; the sandbox refuses `page`.
    const sent = (await world.sandbox.control.requestLog())
      .slice(before)
      .filter((r) => r.route === 'GET /v1/virtual-accounts');
    expect(sent.map((r) => r.status)).toEqual(Array.from({ length: total }, () => 200));
  });

  it('create refuses a crypto account without its destination before any I/O, naming each field', async () => {
    const before = (await world.sandbox.control.requestLog()).length;
    const refused = vas().create({
      user_id: crypto.randomUUID(),
      bank: 'bank_b',
      mode: 'crypto',
      destination: { network: 'ethereum' },
    });
    await expect(refused).rejects.toThrow(PartnerLocalValidationError);
    await expect(refused).rejects.toMatchObject({
      fieldErrors: [
        { field: 'destination.currency', message: expect.any(String) },
        { field: 'destination.address', message: expect.any(String) },
      ],
    });
    expect((await world.sandbox.control.requestLog()).length).toBe(before);
  });

  it('createLiquidationAddress sends an Idempotency-Key and validates before any I/O', async () => {
    const { vaId, recipientId } = await fundedSetup(world);
    const before = (await world.sandbox.control.requestLog()).length;
    await expect(
      vas().createLiquidationAddress(vaId, { network: 'ethereum', token: '', recipient_id: recipientId }),
    ).rejects.toThrow(PartnerLocalValidationError);
    expect((await world.sandbox.control.requestLog()).length).toBe(before);
    const created = await vas().createLiquidationAddress(vaId, {
      network: 'ethereum',
      token: 'USDC',
      recipient_id: recipientId,
    });
    expect(created).toMatchObject({ id: expect.any(String), network: 'ethereum', token: 'USDC' });
    const sent = (await world.sandbox.control.requestLog()).filter((r) =>
      r.path.endsWith('/liquidation-address'),
    );
    expect(sent.at(-1)?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await vas().listLiquidationAddresses(vaId)).map((l) => l.id)).toContain(created.id);
  });

  it('validates list and deposit inputs locally, naming the field', async () => {
    await expect(vas().list({ limit: 101 })).rejects.toMatchObject({ fieldErrors: [{ field: 'limit' }] });
    await expect(vas().list({ offset: -1 })).rejects.toMatchObject({ fieldErrors: [{ field: 'offset' }] });
    // The list pages by offset (evidence §5 [T2s Common.cs]); a `page` from untyped code is refused.
    await expect(vas().list({ page: 2 } as never)).rejects.toMatchObject({
      fieldErrors: [{ field: 'page' }],
    });
    await expect(vas().listAllDeposits({ page: 0 })).rejects.toMatchObject({
      fieldErrors: [{ field: 'page' }],
    });
    await expect(vas().simulateDeposit('va', { amount: '1.234' })).rejects.toMatchObject({
      fieldErrors: [{ field: 'amount' }],
    });
  });
});

describe('client: simulateDeposit in production', () => {
  let world: ClientWorld;
  beforeAll(
    async () =>
      (world = await startClientWorld(
        {},
        { environment: 'production', baseUrl: 'https://api.partner.example' },
      )),
  );
  afterAll(() => stopClientWorld(world));

  it('refuses locally, naming why, and sends nothing', async () => {
    const err = await world.graph.client.virtualAccounts
      .simulateDeposit('0b6f0b0e-8f5e-4d52-9a5e-4f0c7d1c2a11', { amount: '10.00' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerSandboxOnlyOperationError);
    expect((err as Error).message).toMatch(/only in the partner's sandbox.*production/);
    expect(await world.sandbox.control.requestLog()).toHaveLength(0);
  });
});
