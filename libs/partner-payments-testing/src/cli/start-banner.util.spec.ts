import { startBanner } from './start-banner.util';

const sandbox = {
  baseUrl: 'http://127.0.0.1:4010',
  sandboxBaseUrl: 'http://127.0.0.1:4010/sandbox',
  controlUrl: 'http://127.0.0.1:4010/__control',
  credentials: {
    apiKey: 'k-secret',
    clientId: 'client-1',
    password: 'p-secret',
    clientUuid: 'uuid-1',
    webhookSecret: 'w-secret',
  },
};

describe('startBanner', () => {
  it('says no bank is authorized by default (spec 2.4) and how to name some', () => {
    const lines = startBanner(sandbox, {});
    expect(lines).toContainEqual(
      expect.stringMatching(/^authorized banks: none\b.*--authorized-banks bank_a,bank_d/),
    );
    expect(lines.at(-1)).toMatch(/^webhooks: no URL set .*partner-sandbox listen --forward-to URL/);
  });

  it('names the authorized banks, masks the webhook URL and prints no secret', () => {
    const lines = startBanner(sandbox, {
      authorizedBanks: ['bank_a', 'bank_d'],
      webhookUrl: 'http://user:pw-secret@127.0.0.1:3000/hooks?token=t-secret',
    });
    expect(lines).toContainEqual(expect.stringMatching(/^authorized banks: bank_a, bank_d /));
    expect(lines.at(-1)).toBe('webhooks: http://***@127.0.0.1:3000/hooks?token=***');
    for (const secret of ['k-secret', 'p-secret', 'w-secret', 'pw-secret', 't-secret'])
      expect(lines.join('\n')).not.toContain(secret);
  });
});
