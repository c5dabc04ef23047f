import { SANDBOX_DEFAULTS } from '../server/sandbox-server.service';
import { CliUsageError } from './cli-io.util';
import { triggerOptionsFromCli } from './trigger-cli.util';

describe('triggerOptionsFromCli', () => {
  it("takes the account's credentials from flags, then the sandbox's own variables, then its defaults", () => {
    expect(triggerOptionsFromCli(['payout.completed'], {})).toMatchObject({
      event: 'payout.completed',
      baseUrl: 'http://127.0.0.1:4010',
      credentials: {
        apiKey: SANDBOX_DEFAULTS.apiKey,
        clientId: SANDBOX_DEFAULTS.clientId,
        password: SANDBOX_DEFAULTS.password,
      },
      clientUuid: SANDBOX_DEFAULTS.clientUuid,
      timeoutMs: 30000,
    });
    const env = {
      PARTNER_SANDBOX_API_KEY: 'env-key',
      PARTNER_SANDBOX_CLIENT_ID: 'env-client',
      PARTNER_SANDBOX_PASSWORD: 'env-password',
      PARTNER_SANDBOX_PORT: '5010',
    };
    expect(triggerOptionsFromCli(['user.created', '--api-key', 'flag-key'], env)).toMatchObject({
      baseUrl: 'http://127.0.0.1:5010',
      credentials: { apiKey: 'flag-key', clientId: 'env-client', password: 'env-password' },
    });
  });

  it('keeps a /sandbox base URL and the user given', () => {
    expect(
      triggerOptionsFromCli(['user.updated', '--base-url', 'http://h:1/sandbox/', '--user-id', 'u-1'], {}),
    ).toMatchObject({ baseUrl: 'http://h:1/sandbox', userId: 'u-1' });
  });

  it('refuses a missing or unknown event, a bad URL and a bad timeout, naming what is wrong', () => {
    const usage = (argv: string[]) => () => triggerOptionsFromCli(argv, {});
    expect(usage([])).toThrow(CliUsageError);
    expect(usage(['payout.exploded'])).toThrow(/no flow makes payout\.exploded; known: user\.created/);
    expect(usage(['user.created', '--base-url', 'ftp://x'])).toThrow('--base-url');
    expect(usage(['user.created', '--timeout-ms', '0'])).toThrow('--timeout-ms');
    expect(usage(['user.created', '--nope'])).toThrow(CliUsageError);
    expect(triggerOptionsFromCli(['--help'], {})).toBe('help');
  });
});
