import { startPartnerSandbox } from '@partner-payments/testing';
import { Api, individual, useWorld } from '../sandbox.fixture';
import { createVerifiedUser } from '../funded-setup.fixture';

describe('sandbox: client configuration GET /v1/clients/{uuid} (spec 2.4, 4.5)', () => {
  const world = useWorld({ authorizedBanks: ['bank_a', 'bank_d'] }, 'all');

  it('answers { success, data } with wallets and vault null until provisioned', async () => {
    const uuid = world.sandbox.credentials.clientUuid;
    const before = await world.api.call('GET', `/v1/clients/${uuid}`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      success: true,
      data: {
        client: expect.objectContaining({
          id: expect.any(Number),
          client_uuid: uuid,
          company_name: expect.any(String),
          pct_fee: expect.stringMatching(/^\d+\.\d+$/),
          fixed_fee: expect.any(String),
          usd_usdc_fee: null,
        }),
        client_wallets: null,
        client_vault: null,
        authorizedBanks: ['bank_a', 'bank_d'],
      },
    });
    const wallet = await world.sandbox.control.provisionClientWallet({ network__id: 'polygon' });
    await world.sandbox.control.provisionClientVault();
    const after = await world.api.call('GET', `/v1/clients/${uuid}`);
    expect(after.body.data.client_wallets).toEqual({ ...wallet, network__id: 'polygon' });
    expect(after.body.data.client_vault).toMatchObject({
      vault_id: expect.any(String),
      object: expect.any(String),
      name: expect.any(String),
      type: expect.any(String),
    });
  });

  it('400 malformed UUID, 403 another client’s UUID, 404 no such client', async () => {
    const malformed = await world.api.call('GET', '/v1/clients/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_error');
    const other = await world.sandbox.control.createClient();
    expect((await world.api.call('GET', `/v1/clients/${other.clientUuid}`)).status).toBe(403);
    const missing = await world.api.call('GET', `/v1/clients/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const otherApi = await new Api(world.sandbox.sandboxBaseUrl, other).login();
    expect(
      (await otherApi.call('GET', `/v1/clients/${other.clientUuid}`)).body.data.client_wallets,
    ).toBeNull();
  });
});

describe('sandbox: an account with no authorized banks (spec 2.4: the partner default is [])', () => {
  const world = useWorld({ authorizedBanks: [] }, 'all');

  it('shows authorizedBanks [] and refuses every virtual account with a 400 naming bank', async () => {
    const config = await world.api.call('GET', `/v1/clients/${world.sandbox.credentials.clientUuid}`);
    expect(config.body.data.authorizedBanks).toEqual([]);
    const userId = await createVerifiedUser(world.api);
    const va = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_a' },
    });
    expect(va.status).toBe(400);
    expect(va.body.errors).toEqual([expect.objectContaining({ field: 'bank' })]);
    expect((await world.sandbox.control.counters()).created.virtual_accounts).toBe(0);
    await world.sandbox.control.setAuthorizedBanks(['bank_c']);
    const ok = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_c' },
    });
    expect(ok.status).toBe(201);
  });
});

// spec 2.4 (`data.authorizedBanks`: default []) and evidence §5 (a bank outside authorizedBanks →
// 400): a sandbox started with no banks named authorizes none, like a new partner account. It was
// the four banks, a convenience that let a client pass here and fail at the partner.
describe('sandbox: the default authorizedBanks is [] (spec 2.4)', () => {
  it('startPartnerSandbox() without the option: GET /v1/clients shows [], every bank answers 400 on bank', async () => {
    const sandbox = await startPartnerSandbox({ quiet: true });
    try {
      const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const config = await api.call('GET', `/v1/clients/${sandbox.credentials.clientUuid}`);
      expect(config.status).toBe(200);
      expect(config.body.data.authorizedBanks).toEqual([]);
      const userId = await createVerifiedUser(api);
      for (const bank of ['bank_a', 'bank_b', 'bank_c', 'bank_d']) {
        const va = await api.call('POST', '/v1/virtual-accounts', {
          body: { user_id: userId, type: 'US_BANK', bank },
        });
        expect([bank, va.status, va.body.code]).toEqual([bank, 400, 'validation_error']);
        expect(va.body.errors).toEqual([expect.objectContaining({ field: 'bank' })]);
      }
      expect((await sandbox.control.counters()).created.virtual_accounts).toBe(0);
      // control.reset() goes back to the start-up list, not to a convenience default.
      await sandbox.control.setAuthorizedBanks(['bank_a']);
      await sandbox.control.reset();
      const after = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const reread = await after.call('GET', `/v1/clients/${sandbox.credentials.clientUuid}`);
      expect(reread.body.data.authorizedBanks).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('control.createClient() without authorizedBanks: the second account authorizes none either', async () => {
    const sandbox = await startPartnerSandbox({ quiet: true, authorizedBanks: ['bank_a'] });
    try {
      const other = await sandbox.control.createClient();
      const api = await new Api(sandbox.sandboxBaseUrl, other).login();
      const config = await api.call('GET', `/v1/clients/${other.clientUuid}`);
      expect(config.body.data.authorizedBanks).toEqual([]);
      const user = await api.call('POST', '/v1/users', { body: individual() });
      await sandbox.control.setUserVerificationOutcome(user.body.id, 'approved');
      const va = await api.call('POST', '/v1/virtual-accounts', {
        body: { user_id: user.body.id, type: 'US_BANK', bank: 'bank_a' },
      });
      expect(va.status).toBe(400);
      expect(va.body.errors).toEqual([expect.objectContaining({ field: 'bank' })]);
      const withBanks = await sandbox.control.createClient({ authorizedBanks: ['bank_b'] });
      const api2 = await new Api(sandbox.sandboxBaseUrl, withBanks).login();
      const config2 = await api2.call('GET', `/v1/clients/${withBanks.clientUuid}`);
      expect(config2.body.data.authorizedBanks).toEqual(['bank_b']);
    } finally {
      await sandbox.close();
    }
  });
});
