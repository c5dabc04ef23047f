import { randomBytes } from 'node:crypto';
import { SqlParams } from '../database/sql-params.util';
import { type PartnerUnitOfWork } from '../database/unit-of-work.service';

/** The smallest write a probe makes: about one delivery's sealed body. */
const PROBE_BODY_CHARS = 2048;
/** The largest write a probe repeats after a failure (the module refuses bodies over 1 MB). */
const MAX_PROBE_BODY_CHARS = 4 * 1024 * 1024;

export interface InboxWriteState {
  ok: boolean;
  /** Why the inbox cannot record, when it cannot. */
  message?: string;
  /** When the intake's writes started failing (ISO), when they did. */
  failingSince?: string;
}

/**
 * Whether the inbox can record a delivery now, for readiness (health/). `SELECT 1` answers on a
 * full SQLite disk, a read-only PostgreSQL or a table that refuses inserts, while every delivery
 * is answered 500 and lost for good (spec 6.1.4: never re-sent). So readiness writes:
 *
 * - each check inserts and deletes a row of webhook_inbox in a transaction it rolls back: a
 *   read-only database, a revoked INSERT or a refusing trigger fail it, at the cost of one
 *   uncommitted statement pair;
 * - a rolled-back write never reaches the disk, so a full disk shows only in the intake's own
 *   commits: PartnerTypeOrmInboxStore reports each batch's outcome here, and after a failure the check
 *   commits a write as large as the batch that failed (inserted and deleted in one transaction, so
 *   nothing stays and no job sees it). Readiness is back once that commits: a delivery that size
 *   would now be recorded.
 */
export class InboxWriteHealth {
  private failure: { at: Date; message: string; chars: number } | null = null;
  private readonly probeKey = `readiness-probe:${randomBytes(8).toString('hex')}`;

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly keyId: string,
  ) {}

  /** A batch of deliveries committed (PartnerTypeOrmInboxStore.recordBatch). */
  recorded(): void {
    this.failure = null;
  }

  /** A batch of deliveries whose sealed bodies total `chars` could not be recorded. */
  failed(error: unknown, chars: number): void {
    this.failure = {
      at: this.failure?.at ?? new Date(),
      message: error instanceof Error ? error.message : String(error),
      chars: Math.min(MAX_PROBE_BODY_CHARS, Math.max(chars, this.failure?.chars ?? 0)),
    };
  }

  async check(): Promise<InboxWriteState> {
    const failure = this.failure;
    try {
      await this.probe(failure?.chars ?? PROBE_BODY_CHARS, failure !== null);
    } catch (error) {
      return {
        ok: false,
        message: `the inbox cannot record deliveries: ${error instanceof Error ? error.message : String(error)}`,
        ...(failure ? { failingSince: failure.at.toISOString() } : {}),
      };
    }
    if (failure && this.failure === failure) this.failure = null;
    return { ok: true };
  }

  private async probe(chars: number, commit: boolean): Promise<void> {
    const rollback = new Error('rollback');
    // Random text: PostgreSQL compresses a repeated one to nothing, and the write must be real.
    const body = randomBytes(Math.ceil((chars * 3) / 4))
      .toString('base64')
      .slice(0, chars);
    try {
      await this.uow.transaction(async (m) => {
        const now = new Date();
        const p = new SqlParams(this.uow.kind);
        await m.query(
          'INSERT INTO webhook_inbox (event_key, event_id, event_name, envelope, sealed_body, body_key, ' +
            `received_at, state, attempts, processed_at) VALUES (${p.add(this.probeKey)}, ${p.add('readiness')}, ` +
            `${p.add('readiness.probe')}, ${p.add('flat')}, ${p.add(body)}, ${p.add(this.keyId)}, ${p.add(now)}, ` +
            `'processed', 0, ${p.add(now)})`,
          p.values,
        );
        const d = new SqlParams(this.uow.kind);
        await m.query(`DELETE FROM webhook_inbox WHERE event_key = ${d.add(this.probeKey)}`, d.values);
        if (!commit) throw rollback;
      });
    } catch (error) {
      if (error !== rollback) throw error;
    }
  }
}
