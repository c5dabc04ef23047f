import { ConfigValidationError, loadAppConfig, minimumRedriveGraceMs } from './app.config';

const K1 = Buffer.alloc(32, 1).toString('base64');
const K2 = Buffer.alloc(32, 2).toString('base64');

const remote = {
  PARTNER_BASE_URL: 'https://partner.example',
  PARTNER_API_KEY: 'key-123',
  PARTNER_CLIENT_ID: 'client',
  PARTNER_PASSWORD: 'pa55-word',
  PARTNER_WEBHOOK_SECRET: 'whsec_new, whsec_old',
  INBOX_ENCRYPTION_KEYS: `k2:${K2}, k1:${K1}`,
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
      depositRecheckLimit: 200,
      depositOpenLimit: 200,
    });
    expect(config.reconcile).toMatchObject({ completedWindowHours: 72, returnHorizonDays: 60 });
  });

  it('reads the bank-return horizon (RECONCILE_RETURN_HORIZON_DAYS): 0 turns it off, 0 to 400', () => {
    expect(loadAppConfig({ RECONCILE_RETURN_HORIZON_DAYS: '0' }).reconcile.returnHorizonDays).toBe(0);
    expect(loadAppConfig({ RECONCILE_RETURN_HORIZON_DAYS: '120' }).reconcile.returnHorizonDays).toBe(120);
    for (const bad of ['-1', '401', '1.5', 'forever'])
      expect(problemsOf({ RECONCILE_RETURN_HORIZON_DAYS: bad })).toEqual(['RECONCILE_RETURN_HORIZON_DAYS']);
  });

  it('caps the held-deposit reads of a pass (DEPOSIT_RECONCILE_OPEN_LIMIT): 1 to 5000, no "off"', () => {
    expect(loadAppConfig({ DEPOSIT_RECONCILE_OPEN_LIMIT: '25' }).depositOpenLimit).toBe(25);
    // 0 would leave held deposits unread: their outcome may arrive only on the resource (spec 6.4.8).
    for (const bad of ['0', '5001', '2.5', 'all'])
      expect(problemsOf({ DEPOSIT_RECONCILE_OPEN_LIMIT: bad })).toEqual(['DEPOSIT_RECONCILE_OPEN_LIMIT']);
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
      [
        'PARTNER_API_KEY',
        'PARTNER_CLIENT_ID',
        'PARTNER_PASSWORD',
        'PARTNER_WEBHOOK_SECRET',
        'INBOX_ENCRYPTION_KEYS',
      ].sort(),
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
    ['INBOX_ENCRYPTION_KEYS', ' , '],
    ['INBOX_ENCRYPTION_KEYS', K1],
    ['INBOX_ENCRYPTION_KEYS', `k1:${K1.slice(4)}`],
    ['INBOX_ENCRYPTION_KEYS', `k1:${K1},k1:${K2}`],
    ['INBOX_ENCRYPTION_KEYS', `bad id:${K1}`],
    ['INBOX_RETENTION_DAYS', '0'],
    ['INBOX_PRUNE_CRON', 'daily'],
    ['RFI_RECONCILE_CRON', 'every five minutes'],
    ['INBOX_REDELIVERY_CONCURRENCY', '0'],
    ['INBOX_REDELIVERY_BATCH_SIZE', '5000'],
    ['INBOX_RECORD_TIMEOUT_MS', '30000'],
    ['INBOX_RECORD_TIMEOUT_MS', '0'],
    ['INBOX_PROCESSING_DURABILITY', 'off'],
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
    for (const keys of [K1, `k1:${K1.slice(4)}`, `k1:${K1},k1:${K2}`]) {
      const message = (() => {
        try {
          loadAppConfig({ ...remote, INBOX_ENCRYPTION_KEYS: keys });
        } catch (error) {
          return (error as Error).message;
        }
        return 'accepted';
      })();
      expect(message).toContain('INBOX_ENCRYPTION_KEYS');
      for (const key of [K1, K1.slice(4), K2]) expect(message).not.toContain(key);
    }
  });

  it('reads the inbox keys (the first seals), retention and drain settings, with their defaults', () => {
    const config = loadAppConfig({ ...remote, INBOX_RETENTION_DAYS: '7', INBOX_REDELIVERY_CONCURRENCY: '8' });
    expect(config.inbox).toMatchObject({
      retentionDays: 7,
      pruneCron: '0 45 3 * * *',
      redeliveryBatchSize: 100,
      redeliveryConcurrency: 8,
    });
    expect(config.inbox.keyRing?.currentId).toBe('k2');
    expect(config.inbox.keyRing?.ids).toEqual(['k2', 'k1']);
    // The configuration may be printed: the key ring prints its ids only.
    expect(JSON.stringify(config)).not.toContain(K2);
    expect(loadAppConfig({}).inbox).toMatchObject({
      keyRing: null,
      retentionDays: 30,
      recordTimeoutMs: 10000,
    });
    expect(loadAppConfig({ INBOX_RECORD_TIMEOUT_MS: '2500' }).inbox.recordTimeoutMs).toBe(2500);
    expect(loadAppConfig({}).inbox.processingDurability).toBe('relaxed');
    expect(loadAppConfig({ INBOX_PROCESSING_DURABILITY: 'full' }).inbox.processingDurability).toBe('full');
    // PostgreSQL: full only; the app outlives a lost commit there (loadAppConfig says why).
    const pg = { DATABASE_URL: 'postgres://app:secret@127.0.0.1:5432/app' };
    expect(loadAppConfig(pg).inbox.processingDurability).toBe('full');
    expect(() => loadAppConfig({ ...pg, INBOX_PROCESSING_DURABILITY: 'relaxed' })).toThrow(
      /INBOX_PROCESSING_DURABILITY must be full with PostgreSQL/,
    );
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

  it('re-drives payouts every minute, after 300 s, for 24 h by default', () => {
    expect(loadAppConfig({}).redrive).toEqual({
      cron: '45 * * * * *',
      graceMs: 300_000,
      maxAgeMs: 24 * 3_600_000,
    });
  });

  it('keeps the re-drive grace period longer than one full partner call with its retries', () => {
    // The worst call: a token call (R retries), the create answered 401, a second token call (R
    // retries), the create again (R retries): (3R + 4) x timeout + 3R x 30 s of Retry-After waits.
    expect(minimumRedriveGraceMs(10_000, 2)).toBe(280_000);
    expect(minimumRedriveGraceMs(2_000, 0)).toBe(8_000);
    expect(minimumRedriveGraceMs(120_000, 10)).toBe(4_980_000);
    expect(
      loadAppConfig({
        PARTNER_TIMEOUT_MS: '120000',
        PARTNER_MAX_RETRIES: '10',
        PAYOUT_REDRIVE_MAX_AGE_HOURS: '24',
      }).redrive.graceMs,
    ).toBe(4_980_000);
    // Past 24 h the partner has forgotten the key (evidence §11 N40): a re-send could pay twice.
    expect(problemsOf({ ...remote, PAYOUT_REDRIVE_MAX_AGE_HOURS: '25' })).toEqual([
      'PAYOUT_REDRIVE_MAX_AGE_HOURS',
    ]);
    expect(problemsOf({ ...remote, PAYOUT_REDRIVE_GRACE_SECONDS: '200' })).toEqual([
      'PAYOUT_REDRIVE_GRACE_SECONDS',
    ]);
    expect(
      loadAppConfig({
        PARTNER_TIMEOUT_MS: '1000',
        PARTNER_MAX_RETRIES: '0',
        PAYOUT_REDRIVE_GRACE_SECONDS: '4',
      }).redrive.graceMs,
    ).toBe(4000);
  });

  it('refuses a grace period that reaches the maximum age: no pending request would ever be re-sent', () => {
    expect(
      problemsOf({ ...remote, PAYOUT_REDRIVE_GRACE_SECONDS: '3600', PAYOUT_REDRIVE_MAX_AGE_HOURS: '1' }),
    ).toEqual(['PAYOUT_REDRIVE_GRACE_SECONDS']);
    // Unset, a grace the partner settings make longer than the maximum age is refused too.
    expect(
      problemsOf({
        ...remote,
        PARTNER_TIMEOUT_MS: '120000',
        PARTNER_MAX_RETRIES: '10',
        PAYOUT_REDRIVE_MAX_AGE_HOURS: '1',
      }),
    ).toEqual(['PAYOUT_REDRIVE_GRACE_SECONDS']);
  });

  it('bounds the HTTP server: 10 s for headers, 30 s a request, 1000 connections by default; each bad value named', () => {
    expect(loadAppConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_000,
    });
    expect(
      loadAppConfig({ HTTP_REQUEST_TIMEOUT_MS: '60000', HTTP_MAX_CONNECTIONS: '50' }).http,
    ).toMatchObject({
      requestTimeoutMs: 60_000,
      maxConnections: 50,
    });
    for (const name of ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS'])
      for (const bad of ['0', '999', '10s', '-5']) expect(problemsOf({ [name]: bad })).toEqual([name]);
    for (const bad of ['0', '100001', 'many'])
      expect(problemsOf({ HTTP_MAX_CONNECTIONS: bad })).toEqual(['HTTP_MAX_CONNECTIONS']);
    // Node would never apply a headers timeout longer than the whole request's.
    expect(problemsOf({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '15000' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS',
    ]);
  });
});
