import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { inboxEventKey } from '../../database/inbox-text.util';
import { openPackageSqliteFile } from '../../database/sqlite-file.fixture';
import { PartnerUnitOfWork } from '../../database/unit-of-work.service';
import { PartnerJobLockService } from '../../job-locks/job-lock.service';
import { PartnerWebhookInboxEntity } from '../webhook-inbox.entity';
import { InboxAtRestService } from './inbox-at-rest.service';
import { PartnerInboxKeyRing, parseInboxKeys, generateInboxKeyEntry } from './inbox-key-ring.util';
import { InboxMaintenanceStore } from './inbox-maintenance.store';

/** The start-up check of the sealing keys against the bodies stored, on a real SQLite file. */
describe('InboxAtRestService at start', () => {
  let dir: string;
  let ds: DataSource;
  let uow: PartnerUnitOfWork;
  const sealedUnder = new PartnerInboxKeyRing(parseInboxKeys(generateInboxKeyEntry('dev')));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-at-rest-'));
    ds = await openPackageSqliteFile(join(dir, 'inbox.sqlite'));
    uow = new PartnerUnitOfWork(ds);
  });
  afterEach(async () => {
    await ds?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function store(eventId: string, ring: PartnerInboxKeyRing, body = `{"n":"${eventId}"}`) {
    const eventKey = inboxEventKey(eventId);
    await ds.getRepository(PartnerWebhookInboxEntity).insert({
      eventKey,
      eventId,
      eventName: 'payout.completed',
      envelope: 'flat',
      sealedBody: ring.seal(body, eventKey),
      bodyKey: ring.currentId,
      legacyRawBody: null,
      receivedAt: new Date(),
      state: 'pending',
      attempts: 0,
    });
  }

  function atRest(ring: PartnerInboxKeyRing): InboxAtRestService {
    const locks = new PartnerJobLockService(ds, { holder: 'spec' });
    return new InboxAtRestService(new InboxMaintenanceStore(uow, ring), locks, 30);
  }

  it('starts with the key that sealed the stored bodies', async () => {
    await store('e-1', sealedUnder);
    const service = atRest(sealedUnder);
    await expect(service.onApplicationBootstrap()).resolves.toBeUndefined();
    await service.startup;
  });

  it('refuses to start when a listed key id holds other key material than the one that sealed the bodies', async () => {
    // A random key made at each start under the same id: the id is listed, but no stored body opens.
    await store('e-1', sealedUnder);
    await store('e-2', sealedUnder);
    const entry = generateInboxKeyEntry('dev');
    const error = await atRest(new PartnerInboxKeyRing(parseInboxKeys(entry)))
      .onApplicationBootstrap()
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(/inbox\.sealingKeys .*'dev'.* opens none of the 2 inbox entries/);
    expect(error?.message).not.toContain(entry.slice('dev:'.length));
  });

  it('still starts when one stored body was altered and the others open', async () => {
    await store('e-1', sealedUnder);
    await store('e-2', sealedUnder);
    await ds.query(`UPDATE webhook_inbox SET sealed_body = sealed_body || 'x' WHERE event_key = ?`, [
      inboxEventKey('e-1'),
    ]);
    const service = atRest(sealedUnder);
    await expect(service.onApplicationBootstrap()).resolves.toBeUndefined();
    await service.startup;
  });
});
