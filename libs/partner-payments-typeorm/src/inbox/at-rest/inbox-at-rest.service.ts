import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { PartnerJobLockService } from '../../job-locks/job-lock.service';
import { PartnerTypeOrmConfigurationError } from '../../partner-payments-typeorm.errors';
import type { InboxMaintenanceStore } from './inbox-maintenance.store';

export const INBOX_PRUNE_JOB = 'inbox-prune';
export const INBOX_RESEAL_JOB = 'inbox-reseal';
const BATCH = 500;
const DAY_MS = 86_400_000;

export interface PruneSummary {
  ran: boolean;
  /** Processed entries deleted (processed more than `inbox.retentionDays` ago). */
  deleted: number;
  batches: number;
}

/**
 * What the inbox keeps, and for how long: no partner data at rest in plain text, nothing kept
 * for ever but the keys of pruned events.
 *
 * Retention: the inbox-prune job deletes processed entries older than `inbox.retentionDays` in
 * batches of 500, under its job lock (one replica at a time). Failed and dead entries stay for an
 * operator. The key of each deleted entry stays in webhook_inbox_tombstones (about 200 bytes a
 * row with its index entry, never deleted): the signature carries no time (spec 6.1.3), so a body
 * replayed years later is still authentic and must still be a duplicate.
 *
 * Re-sealing: at start, bodies not sealed under the current key (plain text copied by the
 * migration, or an older key after a rotation) are sealed under it, in the background, so the
 * old key can leave `inbox.sealingKeys` once this start has logged that it is done.
 */
export class InboxAtRestService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('InboxAtRest');
  private stopping = false;
  /** Settles when the start's re-sealing pass has ended (tests wait on it). */
  startup: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: InboxMaintenanceStore,
    private readonly locks: PartnerJobLockService,
    private readonly retentionDays: number,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A key removed from the sealing keys while bodies it sealed remain: refuse to start (the
    // app's init or listen rejects) rather than fail their redelivery later.
    const used = await this.store.keysInUse();
    const missing = await this.store.missingKeys(used);
    if (missing.length > 0) {
      throw new PartnerTypeOrmConfigurationError(
        'inbox.sealingKeys',
        `does not list ${missing.map((m) => `'${m.keyId}' (sealed ${m.entries} inbox entries)`).join(', ')}: add it back after the first key`,
      );
    }
    // The id listed with other key material: its bodies would fail at processing and go dead.
    const wrong = await this.store.keysThatOpenNothing(used);
    if (wrong.length > 0) {
      throw new PartnerTypeOrmConfigurationError(
        'inbox.sealingKeys',
        `lists ${wrong.map((w) => `'${w.keyId}' with a key that opens none of the ${w.entries} inbox entries sealed under that id`).join(', ')}: give the key that sealed them (if it is lost, their bodies are too: delete those entries, WHERE body_key = the id)`,
      );
    }
    this.startup = this.reseal().then(
      () => undefined,
      (error: Error) => this.logger.error(`re-sealing inbox bodies failed: ${error.message}`),
    );
  }

  beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    return this.startup;
  }

  /**
   * Seals under the current key every body that is not; returns how many it re-sealed. Bodies no
   * listed key opens are skipped and named in one warning: their entries keep the old key needed
   * (the start is refused without it) until an operator deletes them.
   */
  async reseal(options: { batchSize?: number } = {}): Promise<number> {
    const run = await this.locks.runExclusive(INBOX_RESEAL_JOB, async () => {
      let total = 0;
      let unreadable = 0;
      const named: string[] = []; // the first few, for the warning
      for (let after: string | null = null; !this.stopping;) {
        const batch = await this.store.resealBatch(options.batchSize ?? BATCH, after);
        total += batch.resealed;
        unreadable += batch.unreadable.length;
        named.push(...batch.unreadable.slice(0, 20 - named.length).map((id) => `'${id}'`));
        if (batch.read === 0) break;
        after = batch.last;
      }
      if (unreadable > 0) {
        this.logger.warn(
          `${unreadable} inbox bodies cannot be opened by any sealing key (altered in ` +
            `the database) and stay under their old key: ${named.join(', ')}` +
            `${unreadable > named.length ? ', ...' : ''}; delete those entries to retire it`,
        );
      }
      return total;
    });
    const total = run.ran ? run.result : 0;
    if (total > 0) this.logger.log(`sealed ${total} inbox bodies under the current key`);
    return total;
  }

  /**
   * Deletes processed entries older than the retention, batch after batch (default 500 a
   * statement) until none is left.
   */
  async prune(options: { tick?: Date; now?: Date; batchSize?: number } = {}): Promise<PruneSummary> {
    const batch = options.batchSize ?? BATCH;
    const before = new Date((options.now ?? new Date()).getTime() - this.retentionDays * DAY_MS);
    const run = await this.locks.runExclusive(
      INBOX_PRUNE_JOB,
      async () => {
        const summary = { deleted: 0, batches: 0 };
        while (!this.stopping) {
          const deleted = await this.store.pruneProcessed(before, batch);
          summary.deleted += deleted;
          summary.batches += 1;
          if (deleted < batch) break;
        }
        return summary;
      },
      { tick: options.tick },
    );
    if (!run.ran) return { ran: false, deleted: 0, batches: 0 };
    if (run.result.deleted > 0) {
      this.logger.log(
        `deleted ${run.result.deleted} processed inbox entries older than ${this.retentionDays} days`,
      );
    }
    return { ran: true, ...run.result };
  }
}
