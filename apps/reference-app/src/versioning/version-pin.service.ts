import { Inject, Injectable, Logger } from '@nestjs/common';
import { PartnerApiVersionState, PartnerVersioningService } from '@partner-payments/nestjs';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ApiVersionPinEntity } from './api-version-pin.entity';
import { pinAccountKey } from './pin-account.util';
import { classifyPartnerFailure, PartnerJobLockService, PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PARTNER_CONNECTION, type PartnerConnection } from '../sandbox/partner-connection.providers';

export const VERSION_PIN_JOB = 'version-pin';

export interface PinState {
  configured: string;
  pinned: string | null;
  previous: string | null;
  lastOutcome: string | null;
  refusedTarget: string | null;
  pinnedAt: string | null;
  /** What this run did: called the partner, found it already pinned, skipped a refused target, or lost the lock. */
  action: 'upgraded' | 'already-pinned' | 'refused' | 'skipped-refused' | 'error' | 'locked' | 'read';
}

/**
 * Pins the account to PARTNER_API_VERSION (spec 9.3; provider-facts: POST /v1/versioning/upgrade
 * { target_version }). Runs at start and daily. The answer is stored, so once pinned the partner
 * is not asked again, and the module's PartnerApiVersionState is told so (with sendVersionHeader
 * 'until-pinned' the X-Api-Version header then stops). A refused target (older than the
 * current pin) is logged as an error ONCE and remembered: no retry loop.
 */
@Injectable()
export class VersionPinService {
  private readonly logger = new Logger('VersionPin');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: PartnerUnitOfWork,
    private readonly locks: PartnerJobLockService,
    private readonly versioning: PartnerVersioningService,
    private readonly versionState: PartnerApiVersionState,
    @Inject(PARTNER_CONNECTION) private readonly connection: PartnerConnection,
  ) {}

  /**
   * The account key of the pin row: the digest of the client UUID, else of the client id
   * (pin-account.util.ts: the client id is half of the /auth pair, never stored as it is). The
   * embedded sandbox is a new, unpinned partner at every start, so its pin is keyed by its port
   * too: a stored pin from an earlier run must not silence the header against a fresh account.
   */
  get account(): string {
    const id = pinAccountKey(this.connection.clientUuid ?? this.config.partner.clientId ?? 'default');
    return this.connection.sandbox ? `embedded:${this.connection.sandbox.port}:${id}` : id;
  }

  async state(): Promise<PinState> {
    return this.toState(await this.load(), 'read');
  }

  /** At start: tell the module what the database already knows, before any call goes out. */
  async restore(): Promise<void> {
    const row = await this.load();
    if (row?.pinnedVersion === this.config.partner.apiVersion)
      this.versionState.markPinned(row.pinnedVersion);
  }

  /** `tick`: the cron tick this run serves (see RunExclusiveOptions); none at start or by hand. */
  async pin(options: { tick?: Date } = {}): Promise<PinState> {
    const run = await this.locks.runExclusive(VERSION_PIN_JOB, () => this.pinOnce(), options);
    if (run.ran) return run.result;
    // Another replica is pinning: take what the database knows (it may have finished already).
    await this.restore();
    return this.toState(await this.load(), 'locked');
  }

  private async pinOnce(): Promise<PinState> {
    const target = this.config.partner.apiVersion;
    const row = await this.load();
    if (row?.pinnedVersion === target) {
      this.versionState.markPinned(target);
      return this.toState(row, 'already-pinned');
    }
    if (row?.refusedTarget === target) return this.toState(row, 'skipped-refused');

    const now = new Date();
    try {
      const result = await this.versioning.upgrade(target);
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
      // Only the partner refusing this target is remembered (issue 9 defect 2): our credentials or
      // the token call failing (even with a 4xx such as 404) or the partner unavailable is retried.
      const failure = classifyPartnerFailure(error);
      if (failure.kind === 'refused') {
        // Logged once: the row remembers the refused target and later runs skip it.
        this.logger.error(
          `the partner refused to pin ${target} (${failure.status}): ${message}. Not retrying; fix PARTNER_API_VERSION.`,
        );
        return this.toState(
          await this.save({ lastOutcome: 'refused', refusedTarget: target, lastError: message }),
          'refused',
        );
      }
      // Our credentials refused needs an operator: an error line; the partner down is a warning.
      this.logger[failure.kind === 'our-configuration' ? 'error' : 'warn'](
        `pinning ${target} failed, will try again on the next run: ${message}`,
      );
      return this.toState(await this.save({ lastOutcome: 'error', lastError: message }), 'error');
    }
  }

  private async load(): Promise<ApiVersionPinEntity | null> {
    return this.uow.run((m) => m.findOne(ApiVersionPinEntity, { where: { account: this.account } }));
  }

  private async save(fields: Partial<ApiVersionPinEntity>): Promise<ApiVersionPinEntity> {
    return this.uow.transaction(async (m) => {
      const row =
        (await m.findOne(ApiVersionPinEntity, { where: { account: this.account } })) ??
        m.create(ApiVersionPinEntity, {
          account: this.account,
          pinnedVersion: null,
          previousVersion: null,
          lastOutcome: null,
          refusedTarget: null,
          lastError: null,
          pinnedAt: null,
        });
      Object.assign(row, fields, {
        configuredVersion: this.config.partner.apiVersion,
        updatedAt: new Date(),
      });
      return m.save(ApiVersionPinEntity, row);
    });
  }

  private toState(row: ApiVersionPinEntity | null, action: PinState['action']): PinState {
    return {
      configured: this.config.partner.apiVersion,
      pinned: row?.pinnedVersion ?? null,
      previous: row?.previousVersion ?? null,
      lastOutcome: row?.lastOutcome ?? null,
      refusedTarget: row?.refusedTarget ?? null,
      pinnedAt: row?.pinnedAt ? row.pinnedAt.toISOString() : null,
      action,
    };
  }
}
