/**
 * The opt-in version-pin job of @partner-payments/typeorm in a Nest app of its own (its own
 * DataSource, PartnerPaymentsModule pointed at the sandbox), on a SQLite file and on PostgreSQL.
 * Two such apps on one database are two replicas: with `versionPin` they fire every second and
 * the partner is asked once; an app started later finds the pin at boot, before any call. Without
 * the option nothing is scheduled and nothing is called. Counted at the sandbox.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { PartnerApiVersionState } from '../../libs/partner-payments/src/http/api-version-state.service';
import type { PartnerSandbox } from '@partner-payments/testing';
import {
  PARTNER_VERSION_PIN_JOB,
  PartnerPaymentsTypeOrmModule,
  PartnerVersionPin,
  partnerVersionPinKey,
  type PartnerVersionPinOptions,
} from '@partner-payments/typeorm';
import type { DataSource } from 'typeorm';
import { startTestSandbox } from '../setup/app.fixture';
import { sandboxPartnerModule, silent } from './payout-consumer.fixture';
import {
  PACKAGE_DATABASE_KINDS,
  packageDataSourceOptions,
  packageLocationFor,
} from './typeorm-database.fixture';

jest.setTimeout(90_000);

const UPGRADE_ROUTE = 'POST /v1/versioning/upgrade';
const VERSION = '2026-04-14';
const EVERY_SECOND = '* * * * * *';

interface PinApp {
  ref: INestApplicationContext;
  versionState: PartnerApiVersionState;
  dataSource: DataSource;
}

describe.each(PACKAGE_DATABASE_KINDS)('the version-pin job in an app of its own (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  const apps: PinApp[] = [];
  const cleanups: Array<() => void> = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.ref.close();
  });
  afterAll(async () => {
    await sandbox?.close();
    for (const cleanup of cleanups) cleanup();
  });

  async function location(prefix: string): Promise<string> {
    const fresh = await packageLocationFor(kind, prefix);
    cleanups.push(fresh.cleanup);
    return fresh.location;
  }

  async function start(
    at: string,
    versionPin?: PartnerVersionPinOptions,
    partner: { maxRetries?: number } = {},
  ): Promise<PinApp> {
    const ref = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot({ ...packageDataSourceOptions(kind, at), migrationsRun: true }),
        sandboxPartnerModule(sandbox, { apiVersion: VERSION, ...partner }),
        PartnerPaymentsTypeOrmModule.forRoot(versionPin ? { versionPin } : {}),
      ],
    })
      .setLogger(silent)
      .compile();
    await ref.init();
    const app = {
      ref,
      versionState: ref.get(PartnerApiVersionState),
      dataSource: ref.get<DataSource>(getDataSourceToken()),
    };
    apps.push(app);
    return app;
  }

  const upgrades = async () => (await sandbox.control.counters()).requests[UPGRADE_ROUTE] ?? 0;
  const runs = async (ds: DataSource): Promise<number> => {
    const rows: Array<{ runs: number | string }> = await ds.query(
      `SELECT runs FROM job_locks WHERE name = '${PARTNER_VERSION_PIN_JOB}'`,
    );
    return rows.length ? Number(rows[0].runs) : 0;
  };
  async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('with versionPin, two instances firing every second pin the account once; a later one finds the pin at boot', async () => {
    const at = await location('version-pin');
    const account = sandbox.credentials.clientUuid;
    const before = await upgrades();
    // One after the other: the second finds the schema migrated (the migrations are not under test).
    const a = await start(at, { version: VERSION, account, cron: EVERY_SECOND });
    const b = await start(at, { version: VERSION, account, cron: EVERY_SECOND });
    // Several ticks of both, past the first pin: every later one reads the stored pin.
    await waitFor('six scheduled runs', async () => (await runs(a.dataSource)) >= 6);
    expect(await upgrades()).toBe(before + 1);
    expect(a.versionState.pinnedVersion).toBe(VERSION);
    expect(b.versionState.pinnedVersion).toBe(VERSION);

    const rows: Array<Record<string, unknown>> = await a.dataSource.query(
      'SELECT account, configured_version, pinned_version, last_outcome FROM api_version_pins',
    );
    expect(rows).toEqual([
      {
        account: partnerVersionPinKey(account),
        configured_version: VERSION,
        pinned_version: VERSION,
        last_outcome: 'pinned',
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(account);

    // A third instance, scheduled far ahead: pinned from the database at boot, nothing called.
    const c = await start(at, { version: VERSION, account, cron: '0 0 0 1 1 *' });
    expect(c.versionState.pinnedVersion).toBe(VERSION);
    expect(await c.ref.get(PartnerVersionPin).state()).toMatchObject({ pinned: VERSION, action: 'read' });
    expect(await upgrades()).toBe(before + 1);
  });

  it('the partner failing, two instances whose timers fire for one tick at different moments call it once per tick', async () => {
    const at = await location('version-pin-late');
    const account = sandbox.credentials.clientUuid;
    // Every upgrade answers 503 (a failure tried again on the next tick); no retries, so each
    // request at the sandbox is one pin.
    await sandbox.control.addFault({
      kind: 'server_error',
      route: UPGRADE_ROUTE,
      times: 10_000,
      status: 503,
    });
    const every5s = { version: VERSION, account, cron: '*/5 * * * * *' };
    const a = await start(at, every5s, { maxRetries: 0 });
    const b = await start(at, every5s, { maxRetries: 0 });
    // Each scheduled firing counted; b's timer fires 2 s late, far beyond a's failed run (one
    // refused request), yet well inside the 5 s between ticks.
    const fired = { a: 0, b: 0, bDone: 0 };
    type Scheduled = { scheduledPin: () => Promise<void> };
    const pinA = a.ref.get(PartnerVersionPin) as unknown as Scheduled;
    const pinB = b.ref.get(PartnerVersionPin) as unknown as Scheduled;
    const onTimeA = pinA.scheduledPin.bind(pinA);
    const onTimeB = pinB.scheduledPin.bind(pinB);
    pinA.scheduledPin = () => {
      fired.a++;
      return onTimeA();
    };
    pinB.scheduledPin = async () => {
      fired.b++;
      await new Promise((r) => setTimeout(r, 2_000));
      await onTimeB();
      fired.bDone++;
    };
    try {
      await waitFor('three late runs of b', async () => fired.bDone >= 3, 40_000);
      const [fault] = await sandbox.control.faults();
      // Every tick b served, a fired too (first): one partner call each, never a second.
      expect(fired.a).toBeGreaterThanOrEqual(3);
      expect(fault.hits).toBeGreaterThanOrEqual(3);
      expect(fault.hits).toBeLessThanOrEqual(fired.a);
      expect(await a.ref.get(PartnerVersionPin).state()).toMatchObject({
        pinned: null,
        lastOutcome: 'error',
      });
    } finally {
      await sandbox.control.clearFaults();
    }
  });

  it('without versionPin, nothing is scheduled and nothing is called', async () => {
    const at = await location('no-version-pin');
    const before = await upgrades();
    const a = await start(at);
    const b = await start(at);
    // Longer than several ticks of the every-second schedule above.
    await new Promise((r) => setTimeout(r, 3_500));
    expect(await upgrades()).toBe(before);
    expect(await runs(a.dataSource)).toBe(0);
    expect(await a.dataSource.query('SELECT account FROM api_version_pins')).toEqual([]);
    expect(a.versionState.pinnedVersion).toBeNull();
    expect(b.versionState.pinnedVersion).toBeNull();
    await expect(a.ref.get(PartnerVersionPin).pin()).rejects.toThrow(/versionPin is not configured/);
    expect(await upgrades()).toBe(before);
  });
});
