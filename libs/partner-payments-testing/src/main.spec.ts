import { optionsFromCli, printableUrl } from './main';

describe('optionsFromCli', () => {
  it('reads flags, and flags win over the environment', () => {
    const options = optionsFromCli(
      ['--port', '5000', '--token-ttl', '5', '--banks', 'bank_a, bank_c', '--rate-limit'],
      {
        PARTNER_SANDBOX_PORT: '6000',
        PARTNER_SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
      },
    );
    expect(options).toMatchObject({
      port: 5000,
      tokenTtlSeconds: 5,
      authorizedBanks: ['bank_a', 'bank_c'],
      rateLimit: true,
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
  });

  it('authorizes no bank unless told (spec 2.4: the partner default is []); --authorized-banks, --banks or the environment name them', () => {
    expect(optionsFromCli([], {})).toMatchObject({ authorizedBanks: undefined });
    expect(optionsFromCli(['--authorized-banks', 'bank_a,bank_d'], {})).toMatchObject({
      authorizedBanks: ['bank_a', 'bank_d'],
    });
    expect(optionsFromCli([], { PARTNER_SANDBOX_AUTHORIZED_BANKS: 'bank_b' })).toMatchObject({
      authorizedBanks: ['bank_b'],
    });
    expect(
      optionsFromCli(['--authorized-banks', 'bank_c'], { PARTNER_SANDBOX_AUTHORIZED_BANKS: 'bank_b' }),
    ).toMatchObject({ authorizedBanks: ['bank_c'] });
    expect(() => optionsFromCli(['--banks', 'bank_a', '--authorized-banks', 'bank_b'], {})).toThrow(
      '--authorized-banks',
    );
  });

  it('reads credentials and secrets from the environment', () => {
    const options = optionsFromCli([], {
      PARTNER_SANDBOX_API_KEY: 'k',
      PARTNER_SANDBOX_CLIENT_ID: 'c',
      PARTNER_SANDBOX_PASSWORD: 'p',
      PARTNER_SANDBOX_WEBHOOK_SECRET: 's',
      PARTNER_SANDBOX_TOKEN_TTL: '86400',
    });
    expect(options).toMatchObject({
      port: 4010,
      credentials: { apiKey: 'k', clientId: 'c', password: 'p' },
      webhookSecret: 's',
      tokenTtlSeconds: 86400,
    });
  });

  it('turns on scripted payouts by flag or environment', () => {
    expect(optionsFromCli(['--auto-payouts'], {})).toMatchObject({ autoPayouts: true });
    expect(optionsFromCli([], { PARTNER_SANDBOX_AUTO_PAYOUTS: '1' })).toMatchObject({ autoPayouts: true });
    expect(optionsFromCli([], {})).toMatchObject({ autoPayouts: false });
  });

  it('limits the rate by default, as the partner does; --no-rate-limit or PARTNER_SANDBOX_RATE_LIMIT=0 turn it off', () => {
    expect(optionsFromCli([], {})).toMatchObject({ rateLimit: true });
    expect(optionsFromCli(['--no-rate-limit'], {})).toMatchObject({ rateLimit: false });
    expect(optionsFromCli([], { PARTNER_SANDBOX_RATE_LIMIT: '0' })).toMatchObject({ rateLimit: false });
    expect(optionsFromCli([], { PARTNER_SANDBOX_RATE_LIMIT: '1' })).toMatchObject({ rateLimit: true });
  });

  it('answers help, refuses bad numbers and unknown flags', () => {
    expect(optionsFromCli(['--help'], {})).toBe('help');
    expect(() => optionsFromCli(['--port', 'abc'], {})).toThrow('--port');
    expect(() => optionsFromCli(['--nope'], {})).toThrow();
  });

  it('reads --bases (flag or environment) and refuses other values', () => {
    expect(optionsFromCli(['--bases', 'sandbox'], {})).toMatchObject({ bases: 'sandbox' });
    expect(optionsFromCli([], { PARTNER_SANDBOX_BASES: 'root' })).toMatchObject({ bases: 'root' });
    expect(optionsFromCli([], {})).toMatchObject({ bases: undefined });
    expect(() => optionsFromCli(['--bases', 'prod'], {})).toThrow('--bases');
  });

  it('reads --user-verification (flag or environment): manual by default, opt-in modes, others refused', () => {
    expect(optionsFromCli([], {})).toMatchObject({ userVerification: undefined });
    expect(optionsFromCli(['--user-verification', 'auto-approve'], {})).toMatchObject({
      userVerification: 'auto-approve',
    });
    expect(optionsFromCli([], { PARTNER_SANDBOX_USER_VERIFICATION: 'ein-table' })).toMatchObject({
      userVerification: 'ein-table',
    });
    expect(() => optionsFromCli(['--user-verification', 'instant'], {})).toThrow('--user-verification');
  });

  it('masks credentials and query values of a webhook URL before printing it', () => {
    expect(printableUrl('https://hook-user:s3cret@example.com/hooks?token=abc123&x=1')).toBe(
      'https://***@example.com/hooks?token=***&x=***',
    );
    expect(printableUrl('http://127.0.0.1:3000/webhooks/partner')).toBe(
      'http://127.0.0.1:3000/webhooks/partner',
    );
    expect(printableUrl('not a url')).toBe('(unparseable URL)');
  });
});
