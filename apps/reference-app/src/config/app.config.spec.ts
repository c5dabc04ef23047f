import { ConfigValidationError, loadAppConfig } from './app.config';

const remote = {
  PARTNER_BASE_URL: 'https://partner.example',
  PARTNER_API_KEY: 'key-123',
  PARTNER_CLIENT_ID: 'client',
  PARTNER_PASSWORD: 'pa55-word',
  PARTNER_WEBHOOK_SECRET: 'whsec_new, whsec_old',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadAppConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as ConfigValidationError).problems.map((p) => p.variable);
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadAppConfig', () => {
  it('applies the documented defaults with nothing set (embedded sandbox, SQLite, demo on)', () => {
    const config = loadAppConfig({});
    expect(config.partner).toMatchObject({
      baseUrl: null,
      environment: 'sandbox',
      apiVersion: '2026-04-14',
      webhookSecrets: [],
    });
    expect(config.database).toEqual({ kind: 'sqlite', path: `${process.cwd()}/data/reference-app.sqlite` });
    expect(config).toMatchObject({
      port: 3000,
      demo: true,
      reconcile: { cron: '0 * * * * *', batchSize: 50, concurrency: 4 },
    });
  });

  it('reads a remote partner configuration and splits the rotation secrets', () => {
    const config = loadAppConfig({
      ...remote,
      PORT: '8080',
      RECONCILE_BATCH_SIZE: '10',
      DATABASE_URL: 'postgres://u:p@db/app',
    });
    expect(config.partner.webhookSecrets).toEqual(['whsec_new', 'whsec_old']);
    expect(config).toMatchObject({
      port: 8080,
      demo: false,
      database: { kind: 'postgres' },
      reconcile: { batchSize: 10 },
    });
  });

  it('logs at "log" and above by default; LOG_LEVEL=debug adds the per-call lines', () => {
    expect(loadAppConfig({}).logLevels).toEqual(['fatal', 'error', 'warn', 'log']);
    expect(loadAppConfig({ LOG_LEVEL: 'debug' }).logLevels).toEqual([
      'fatal',
      'error',
      'warn',
      'log',
      'debug',
    ]);
    expect(loadAppConfig({ LOG_LEVEL: 'warn' }).logLevels).toEqual(['fatal', 'error', 'warn']);
  });

  it('names each credential missing when PARTNER_BASE_URL is set', () => {
    expect(problemsOf({ PARTNER_BASE_URL: 'https://partner.example' }).sort()).toEqual(
      ['PARTNER_API_KEY', 'PARTNER_CLIENT_ID', 'PARTNER_PASSWORD', 'PARTNER_WEBHOOK_SECRET'].sort(),
    );
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PARTNER_ENV', 'staging'],
    ['PARTNER_API_VERSION', 'latest'],
    ['DATABASE_URL', 'mysql://x/y'],
    ['RECONCILE_CRON', 'every minute'],
    ['RECONCILE_CONCURRENCY', '50'],
    ['RECONCILE_BATCH_SIZE', '0'],
    ['PARTNER_CLIENT_UUID', 'not-a-uuid'],
    ['PARTNER_BASE_URL', 'ftp://partner'],
    ['LOG_LEVEL', 'chatty'],
    ['OPERATOR_TOKEN', 'short-token'],
    ['OPERATOR_TOKEN', 'has a space 0123456789'],
    ['APP_API_KEYS', 'key-long-enough-0001,short'],
  ])('refuses %s=%s naming the variable', (variable, value) => {
    expect(problemsOf({ ...remote, [variable]: value })).toEqual([variable]);
  });

  it('never puts a secret value in the error message', () => {
    try {
      loadAppConfig({ ...remote, PARTNER_API_KEY: '', PORT: 'x' });
      throw new Error('expected a refusal');
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PARTNER_API_KEY');
      for (const secret of ['pa55-word', 'whsec_new', 'whsec_old']) expect(message).not.toContain(secret);
    }
  });

  it('reads OPERATOR_TOKEN and the APP_API_KEYS rotation list; open only in the embedded-sandbox demo', () => {
    const config = loadAppConfig({
      ...remote,
      OPERATOR_TOKEN: 'operator-token-0123456789',
      APP_API_KEYS: ' key-new-0123456789abc , key-old-0123456789abc ',
    });
    expect(config.access).toEqual({
      operatorToken: 'operator-token-0123456789',
      apiKeys: ['key-new-0123456789abc', 'key-old-0123456789abc'],
      demoOpen: false,
    });
    expect(loadAppConfig({}).access).toEqual({ operatorToken: null, apiKeys: [], demoOpen: true });
  });

  it('never echoes a refused OPERATOR_TOKEN or APP_API_KEYS', () => {
    try {
      loadAppConfig({ OPERATOR_TOKEN: 'tiny-secret', APP_API_KEYS: 'tiny-key' });
      throw new Error('expected a refusal');
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/OPERATOR_TOKEN.*APP_API_KEYS|APP_API_KEYS.*OPERATOR_TOKEN/);
      expect(message).not.toMatch(/tiny-secret|tiny-key/);
    }
  });
});
