import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { PartnerJobLockEntity } from '../job-locks/job-lock.entity';
import { openPackageSqliteFile } from './sqlite-file.fixture';
import { PartnerUnitOfWork } from './unit-of-work.service';

describe('PartnerUnitOfWork on SQLite (one shared connection)', () => {
  let dir: string;
  let ds: DataSource;
  let uow: PartnerUnitOfWork;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ref-app-uow-'));
    ds = await openPackageSqliteFile(join(dir, 'uow.sqlite'));
    uow = new PartnerUnitOfWork(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const row = (name: string) => ({
    name,
    holder: null,
    lastStartedAt: null,
    lastFinishedAt: null,
    lastOutcome: null,
    lastError: null,
    runs: 0,
  });

  it('keeps a write made by another flow while a transaction is open, when that transaction rolls back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = uow.transaction(async (m) => {
      await m.insert(PartnerJobLockEntity, row('rolled-back'));
      await gate;
      throw new Error('abort');
    });
    // Issued while the transaction is open: without serialization it would join it and vanish.
    const outside = uow.run((m) => m.insert(PartnerJobLockEntity, row('kept')));
    release();
    await expect(failing).rejects.toThrow('abort');
    await outside;
    expect(await ds.getRepository(PartnerJobLockEntity).countBy({ name: 'kept' })).toBe(1);
    expect(await ds.getRepository(PartnerJobLockEntity).countBy({ name: 'rolled-back' })).toBe(0);
  });

  it('lets code inside a transaction join it through run() and transaction() without deadlocking', async () => {
    await uow.transaction(async () => {
      expect(uow.currentTransaction()).toBeDefined();
      await uow.run((m) => m.insert(PartnerJobLockEntity, row('nested-run')));
      await uow.transaction((m) => m.insert(PartnerJobLockEntity, row('nested-tx')));
    });
    expect(await ds.getRepository(PartnerJobLockEntity).countBy({ name: 'nested-run' })).toBe(1);
    expect(await ds.getRepository(PartnerJobLockEntity).countBy({ name: 'nested-tx' })).toBe(1);
    expect(uow.currentTransaction()).toBeUndefined();
  });

  it('queues a write that a finished transaction left behind, so another open transaction rolling back keeps it', async () => {
    let otherIsOpen!: () => void;
    const otherOpen = new Promise<void>((r) => (otherIsOpen = r));
    let escaped!: Promise<unknown>;
    await uow.transaction(async () => {
      // Left behind: runs after this transaction committed, still in its async context.
      escaped = otherOpen.then(() => uow.run((m) => m.insert(PartnerJobLockEntity, row('left-behind'))));
    });
    const failing = uow.transaction(async (m) => {
      await m.insert(PartnerJobLockEntity, row('other-rolled-back'));
      otherIsOpen();
      // Joined to this transaction, the write would be done by now; queued, it waits for it.
      await Promise.race([escaped, new Promise((r) => setTimeout(r, 300))]);
      throw new Error('abort');
    });
    await expect(failing).rejects.toThrow('abort');
    await escaped;
    expect(await ds.getRepository(PartnerJobLockEntity).countBy({ name: 'left-behind' })).toBe(1);
    expect(uow.currentTransaction()).toBeUndefined();
  });
});
