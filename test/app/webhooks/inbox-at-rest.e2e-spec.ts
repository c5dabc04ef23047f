/**
 * Inbox bodies at rest. Sealed with AES-256-GCM under INBOX_ENCRYPTION_KEYS
 * (rotation re-seals under the first key; a removed key still needed refuses the start), the
 * embedded-sandbox demo's key file, and retention (processed entries past INBOX_RETENTION_DAYS are
 * deleted in batches, nothing else). Storage on both databases.
 */
import { statSync, readFileSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { PartnerWebhookIngestService } from '@partner-payments/nestjs/webhooks';
import { startApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { ConfigValidationError } from '../../../apps/reference-app/src/config/app.config';
import { placeholders, timestampParam } from '@partner-payments/typeorm/sql';
import {
  PartnerJobLockService,
  generateInboxKeyEntry,
  PartnerInboxKeyRing,
  parseInboxKeys,
  PartnerTypeOrmInboxStore,
} from '@partner-payments/typeorm';
import { InboxAtRestService } from '../../../libs/partner-payments-typeorm/src/inbox/at-rest/inbox-at-rest.service';
import { InboxMaintenanceStore } from '../../../libs/partner-payments-typeorm/src/inbox/at-rest/inbox-maintenance.store';
import {
  CapturingLogger,
  NEVER,
  partnerEnv,
  startTestApp,
  startTestSandbox,
  testInboxKeyRing,
} from '../../setup/app.fixture';
import {
  DATABASE_KINDS,
  databaseUrlFor,
  openTestDatabase,
  type TestDatabase,
} from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

const ring = (...entries: string[]) => new PartnerInboxKeyRing(parseInboxKeys(entries.join(',')));
const K1 = generateInboxKeyEntry('k1');
const K2 = generateInboxKeyEntry('k2');
const DAY = 86_400_000;
const body = (id: string) =>
  JSON.stringify({
    event: 'virtual_account.created',
    data: { event_id: id, account_number: '555566667777' },
  });
const input = (id: string, receivedAt = new Date()) => ({
  eventId: id,
  name: 'virtual_account.created',
  envelope: 'flat' as const,
  rawBody: body(id),
  receivedAt,
});

describe.each(DATABASE_KINDS)('the inbox at rest on %s', (kind) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await openTestDatabase(kind, 'atrest');
  });
  afterEach(async () => db?.close());

  it('rotation: a key still needed is reported missing; bodies re-seal under the new first key', async () => {
    const before = new PartnerTypeOrmInboxStore(db.uow, ring(K1));
    for (const id of ['r1', 'r2', 'r3']) await before.record(input(id));
    expect(await new InboxMaintenanceStore(db.uow, ring(K2)).missingKeys()).toEqual([
      { keyId: 'k1', entries: 3 },
    ]);
    const rotating = new InboxMaintenanceStore(db.uow, ring(K2, K1));
    expect(await rotating.missingKeys()).toEqual([]);
    const service = new InboxAtRestService(rotating, new PartnerJobLockService(db.dataSource), 30);
    expect(await service.reseal()).toBe(3);
    expect(await service.reseal()).toBe(0);
    const keys: Array<{ body_key: string }> = await db.dataSource.query('SELECT body_key FROM webhook_inbox');
    expect(keys.map((r) => r.body_key)).toEqual(['k2', 'k2', 'k2']);
    // The old key can go now.
    const after = new PartnerTypeOrmInboxStore(db.uow, ring(K2));
    expect((await after.get('r2'))?.rawBody).toBe(body('r2'));
  });

  it('rotation goes past a body no key opens: every other body re-seals, the unreadable one is named', async () => {
    const before = new PartnerTypeOrmInboxStore(db.uow, ring(K1));
    const ids = Array.from({ length: 6 }, (_, i) => `u${i}`);
    for (const id of ids) await before.record(input(id));
    // The entry first in event_key order (the order re-sealing reads in) has its body altered.
    const [first]: Array<{ event_id: string }> = await db.dataSource.query(
      'SELECT event_id FROM webhook_inbox ORDER BY event_key LIMIT 1',
    );
    const [p1] = placeholders(kind, 1);
    await db.dataSource.query(
      `UPDATE webhook_inbox SET sealed_body = sealed_body || 'AA' WHERE event_id = ${p1}`,
      [first.event_id],
    );
    const service = new InboxAtRestService(
      new InboxMaintenanceStore(db.uow, ring(K2, K1)),
      new PartnerJobLockService(db.dataSource),
      30,
    );
    const warned = jest.spyOn(Logger.prototype, 'warn');
    expect(await service.reseal({ batchSize: 2 })).toBe(5);
    const keys: Array<{ event_id: string; body_key: string }> = await db.dataSource.query(
      'SELECT event_id, body_key FROM webhook_inbox ORDER BY event_id',
    );
    expect(keys.filter((r) => r.body_key !== 'k2').map((r) => r.event_id)).toEqual([first.event_id]);
    // The operator is told which entry keeps the old key needed (its id, never its body).
    const said = warned.mock.calls.map((c) => String(c[0])).join('\n');
    warned.mockRestore();
    expect(said).toContain(`'${first.event_id}'`);
    expect(said).not.toContain('555566667777');
    // A second pass ends too (the unreadable row is read again, not looped on).
    expect(await service.reseal({ batchSize: 2 })).toBe(0);
  });

  it('seals plain-text bodies the migration copied, and clears them', async () => {
    const [a, b, c, d] = placeholders(kind, 4);
    await db.dataSource.query(
      `INSERT INTO webhook_inbox (event_key, event_id, event_name, envelope, raw_body, received_at, state, attempts) ` +
        `VALUES (${a}, 'legacy', 'virtual_account.created', 'flat', ${b}, ${c}, 'processed', ${d})`,
      ['legacy'.padEnd(64, '0'), body('legacy'), timestampParam(kind, new Date()), 1],
    );
    // The legacy row's key is not the digest of its id: re-sealing binds the body to the row it is on.
    const keys = testInboxKeyRing();
    const service = new InboxAtRestService(
      new InboxMaintenanceStore(db.uow, keys),
      new PartnerJobLockService(db.dataSource),
      30,
    );
    expect(await service.reseal()).toBe(1);
    const rows: Array<{ raw_body: string | null; sealed_body: string }> = await db.dataSource.query(
      'SELECT raw_body, sealed_body FROM webhook_inbox',
    );
    expect(rows[0].raw_body).toBeNull();
    expect(JSON.stringify(rows)).not.toContain('555566667777');
  });

  it('prunes processed entries past the retention in bounded batches; failed, dead, pending and recent stay', async () => {
    const store = new PartnerTypeOrmInboxStore(db.uow, testInboxKeyRing());
    const now = new Date();
    const old = new Date(now.getTime() - 31 * DAY);
    const ids = Array.from({ length: 12 }, (_, i) => `old_${i}`);
    for (const id of ids) await store.record(input(id, old));
    for (const id of [...ids, 'recent']) {
      if (id === 'recent') await store.record(input(id, now));
      await store.process(id, async () => undefined);
    }
    for (const id of ['failed', 'dead', 'pending']) await store.record(input(id, old));
    await store.markFailed('failed', 'x');
    const [at] = placeholders(kind, 1);
    await db.dataSource.query(
      `UPDATE webhook_inbox SET processed_at = ${at} WHERE event_id LIKE 'old\\_%' ESCAPE '\\'`,
      [timestampParam(kind, old)],
    );
    await db.dataSource.query(`UPDATE webhook_inbox SET state = 'dead' WHERE event_id = 'dead'`);
    const service = new InboxAtRestService(
      new InboxMaintenanceStore(db.uow, testInboxKeyRing()),
      new PartnerJobLockService(db.dataSource),
      30,
    );
    expect(await service.prune({ now, batchSize: 5 })).toEqual({ ran: true, deleted: 12, batches: 3 });
    expect(await store.countByState()).toEqual({ processed: 1, failed: 1, dead: 1, pending: 1 });
    expect(await service.prune({ now })).toEqual({ ran: true, deleted: 0, batches: 1 });
  });

  it('refuses to start when INBOX_ENCRYPTION_KEYS no longer lists a key that sealed entries', async () => {
    const sandbox = await startTestSandbox();
    try {
      await new PartnerTypeOrmInboxStore(db.uow, testInboxKeyRing()).record(input('needs-test1'));
      const start = startTestApp(db.url, { INBOX_ENCRYPTION_KEYS: K2 }, sandbox);
      await expect(start).rejects.toThrow(ConfigValidationError);
      await expect(startTestApp(db.url, { INBOX_ENCRYPTION_KEYS: K2 }, sandbox)).rejects.toThrow(
        /INBOX_ENCRYPTION_KEYS does not list 'test1' \(sealed 1 inbox entries\)/,
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe('INBOX_ENCRYPTION_KEYS in the configuration', () => {
  it('is required with a real partner: the app refuses to start, naming it', async () => {
    const sandbox = await startTestSandbox();
    try {
      const env = { ...partnerEnv(sandbox), INBOX_ENCRYPTION_KEYS: undefined, PORT: '0' };
      await expect(startApp({ env, envFile: false, logger: false })).rejects.toThrow(
        /^Invalid configuration: INBOX_ENCRYPTION_KEYS is required when PARTNER_BASE_URL is set/,
      );
    } finally {
      await sandbox.close();
    }
  });

  it('the embedded-sandbox demo makes a key file beside its SQLite file (0600), says so once, and reuses it', async () => {
    const { url, cleanup } = await databaseUrlFor('sqlite', 'demokey');
    const file = `${url.replace(/^sqlite:/, '')}.inbox-key`;
    const env = {
      PORT: '0',
      DATABASE_URL: url,
      PARTNER_BASE_URL: undefined,
      INBOX_ENCRYPTION_KEYS: undefined,
      DEMO: 'false',
      RECONCILE_CRON: NEVER,
      INBOX_REDELIVERY_CRON: NEVER,
      INBOX_PRUNE_CRON: NEVER,
      DEPOSIT_RECONCILE_CRON: NEVER,
      VERSION_PIN_CRON: NEVER,
    };
    const boot = async () => {
      const logger = new CapturingLogger();
      const running = await startApp({ env, envFile: false, host: '127.0.0.1', logger });
      return { running, said: logger.lines.filter((l) => l.includes('INBOX_ENCRYPTION_KEYS is not set')) };
    };
    try {
      const first = await boot();
      expect(first.said).toEqual([expect.stringContaining(`${file} (created now, mode 0600)`)]);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, 'utf8');
      const raw = body('demo-evt');
      await first.running.app.get(PartnerWebhookIngestService).accept(Buffer.from(raw));
      await first.running.close();

      const second = await boot();
      try {
        expect(second.said).toEqual([expect.stringContaining(`${file} (reused)`)]);
        expect(readFileSync(file, 'utf8')).toBe(key);
        expect((await second.running.app.get(PartnerTypeOrmInboxStore).get('demo-evt'))?.rawBody).toBe(raw);
      } finally {
        await second.running.close();
      }
    } finally {
      cleanup();
    }
  });
});
