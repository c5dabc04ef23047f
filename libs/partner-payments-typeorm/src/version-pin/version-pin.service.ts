import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { PartnerPaymentsClient, PartnerVersioningService } from '@partner-payments/nestjs';
import { CronJob } from 'cron';
import type { PartnerUnitOfWork } from '../database/unit-of-work.service';
import type { PartnerJobLockService } from '../job-locks/job-lock.service';
import { partnerScheduledTick } from '../job-locks/scheduled-tick.util';
import { PartnerTypeOrmConfigurationError } from '../partner-payments-typeorm.errors';
import { classifyPartnerFailure } from '../payouts/partner-failure.util';
import { PartnerVersionPinEntity } from './version-pin.entity';
import { partnerVersionPinKey } from './version-pin-key.util';
import type { PartnerVersionPinResolvedOptions } from './version-pin.options';

/** The job's name in `job_locks` (and its advisory-lock key, partnerJobLockKey). */
export const PARTNER_VERSION_PIN_JOB = 'version-pin';

/** How long shutdown waits for a scheduled pin still running before the DataSource closes. */
const SETTLE_BOUND_MS = 10_000;

/** The pin as stored, and what the run that answers it did. */
export interface PartnerVersionPinState {
  /** The version the account is to be pinned to (`versionPin.version`). */
  configured: string;
  /** The version the account is pinned to, as the partner answered. */
  pinned: string | null;
  previous: string | null;
  lastOutcome: string | null;
  /** A target the partner refused: not asked again. */
  refusedTarget: string | null;
  pinnedAt: string | null;
  /** Called the partner, found it already pinned, skipped a refused target, lost the lock, or only read. */
  action: 'upgraded' | 'already-pinned' | 'refused' | 'skipped-refused' | 'error' | 'locked' | 'read';
}

/** The module's services this one calls, found when first used (PartnerPaymentsModule, isGlobal). */
export interface VersionPinPartner {
  versioning(): PartnerVersioningService;
  versionState(): PartnerPaymentsClient['versionState'];
}

/**
 * The opt-in version-pin job (spec 9.3: once POST /v1/versioning/upgrade succeeds the
 * X-Api-Version header can be dropped). At start it tells the module's API version state
 * (`client.versionState`) what the database knows, before any call goes out; on its schedule it
 * pins under PartnerJobLockService, so one replica calls the partner. The answer is stored, so
 * once pinned the partner is not asked again; a refused target (older than the current pin) is
 * logged once and remembered: no retry loop. Without `versionPin` nothing is scheduled and every
 * call refuses.
 */
export class PartnerVersionPin implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('VersionPin');
  private job: CronJob | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly locks: PartnerJobLockService,
    private readonly options: PartnerVersionPinResolvedOptions | undefined,
    private readonly partner: VersionPinPartner,
  ) {}

  /** Whether `versionPin` was given. */
  get enabled(): boolean {
    return this.options !== undefined;
  }

  /** The stored pin, without calling the partner (`action: 'read'`). */
  async state(): Promise<PartnerVersionPinState> {
    return this.toState(await this.load(), 'read');
  }

  /** Marks the module pinned when the stored pin is the configured version. Run at start. */
  async restore(): Promise<void> {
    const { version } = this.configured();
    const row = await this.load();
    if (row?.pinnedVersion === version) this.partner.versionState().markPinned(version);
  }

  /**
   * Pins now, once across replicas: `'locked'` when another replica pins at this moment (the
   * state is then what the database knows). `tick`: the cron tick the run serves (see
   * PartnerRunExclusiveOptions); none for a run asked for by hand.
   */
  async pin(options: { tick?: Date } = {}): Promise<PartnerVersionPinState> {
    this.configured();
    const run = await this.locks.runExclusive(PARTNER_VERSION_PIN_JOB, () => this.pinOnce(), options);
    if (run.ran) return run.result;
    // Another replica is pinning: take what the database knows (it may have finished already).
    await this.restore();
    return this.toState(await this.load(), 'locked');
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options) return;
    await this.restore();
    // waitForCompletion: a slow pin is never overlapped by the next tick of this process; the
    // job lock keeps other replicas out, and the stored pin makes their later tick a read.
    this.job = CronJob.from({
      cronTime: this.options.cron,
      waitForCompletion: true,
      start: true,
      onTick: () => this.scheduledPin(),
    });
  }

  /** Stops the schedule and waits, bounded, for a pin in flight, before the DataSource closes. */
  async beforeApplicationShutdown(): Promise<void> {
    void this.job?.stop();
    this.job = undefined;
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTLE_BOUND_MS)));
    await Promise.race([this.running, bound]);
    clearTimeout(timer);
  }

  private async scheduledPin(): Promise<void> {
    // The tick this firing serves, however late the timer fired: a replica whose timer fires
    // after another's run of the same tick ended skips it instead of calling the partner again.
    const tick = this.job ? partnerScheduledTick(this.job.cronTime) : undefined;
    const run = this.pin({ tick }).catch((error: unknown) =>
      this.logger.error(`job ${PARTNER_VERSION_PIN_JOB} failed: ${(error as Error).message}`),
    );
    this.running = run;
    await run;
    if (this.running === run) this.running = undefined;
  }

  private configured(): PartnerVersionPinResolvedOptions {
    if (!this.options)
      throw new PartnerTypeOrmConfigurationError(
        'versionPin',
        'is not configured: give { version, account } in the module options to use PartnerVersionPin',
      );
    return this.options;
  }

  private get key(): string {
    return partnerVersionPinKey(this.configured().account);
  }

  private async pinOnce(): Promise<PartnerVersionPinState> {
    const target = this.configured().version;
    const row = await this.load();
    if (row?.pinnedVersion === target) {
      this.partner.versionState().markPinned(target);
      return this.toState(row, 'already-pinned');
    }
    if (row?.refusedTarget === target) return this.toState(row, 'skipped-refused');
    const now = new Date();
    try {
      const result = await this.partner.versioning().upgrade(target);
      const saved = await this.save({
        pinnedVersion: result.currentVersion ?? target,
        previousVersion: result.previousVersion,
        lastOutcome: 'pinned',
        refusedTarget: null,
        lastError: null,
        pinnedAt: now,
      });
      this.logger.log(
        `account pinned to ${saved.pinnedVersion} (was ${result.previousVersion ?? 'unpinned'})`,
      );
      return this.toState(saved, 'upgraded');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Only the partner refusing this target is remembered: our credentials or the token call
      // failing (even with a 4xx such as 404) or the partner unavailable is tried again.
      const failure = classifyPartnerFailure(error);
      if (failure.kind === 'refused') {
        this.logger.error(
          `the partner refused to pin ${target} (${failure.status}): ${message}. Not retrying; fix the configured version.`,
        );
        const saved = await this.save({ lastOutcome: 'refused', refusedTarget: target, lastError: message });
        return this.toState(saved, 'refused');
      }
      // Our credentials refused needs an operator: an error line; the partner down is a warning.
      this.logger[failure.kind === 'our-configuration' ? 'error' : 'warn'](
        `pinning ${target} failed, will try again on the next run: ${message}`,
      );
      return this.toState(await this.save({ lastOutcome: 'error', lastError: message }), 'error');
    }
  }

  private async load(): Promise<PartnerVersionPinEntity | null> {
    const account = this.key;
    return this.uow.run((m) => m.findOne(PartnerVersionPinEntity, { where: { account } }));
  }

  private async save(fields: Partial<PartnerVersionPinEntity>): Promise<PartnerVersionPinEntity> {
    const account = this.key;
    return this.uow.transaction(async (m) => {
      const row =
        (await m.findOne(PartnerVersionPinEntity, { where: { account } })) ??
        m.create(PartnerVersionPinEntity, {
          account,
          pinnedVersion: null,
          previousVersion: null,
          lastOutcome: null,
          refusedTarget: null,
          lastError: null,
          pinnedAt: null,
        });
      Object.assign(row, fields, { configuredVersion: this.configured().version, updatedAt: new Date() });
      return m.save(PartnerVersionPinEntity, row);
    });
  }

  private toState(
    row: PartnerVersionPinEntity | null,
    action: PartnerVersionPinState['action'],
  ): PartnerVersionPinState {
    return {
      configured: this.configured().version,
      pinned: row?.pinnedVersion ?? null,
      previous: row?.previousVersion ?? null,
      lastOutcome: row?.lastOutcome ?? null,
      refusedTarget: row?.refusedTarget ?? null,
      pinnedAt: row?.pinnedAt ? row.pinnedAt.toISOString() : null,
      action,
    };
  }
}
