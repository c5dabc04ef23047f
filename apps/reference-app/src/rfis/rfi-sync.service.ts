import { AsyncResource } from 'node:async_hooks';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { PartnerRfisService } from '@partner-payments/nestjs';
import { PartnerNotFoundError } from '@partner-payments/nestjs/errors';
import { RfiProjection, type RfiWriteOutcome } from './rfi-projection.service';

/** How long shutdown waits for the reads in flight. */
const SETTLE_BOUND_MS = 10_000;

/**
 * Reads RFIs from the partner into the projection. `rfi.*` events carry no items (evidence §9:
 * read the RFI again), and a handler runs inside the inbox's transaction, where the partner must
 * not be called: the handler marks the row stale and asks for a read here, which runs after it,
 * outside that transaction and its ambient scope. A read that fails leaves the row stale for the
 * reconciliation job, as does one asked for after shutdown began.
 */
@Injectable()
export class RfiSync implements OnApplicationShutdown {
  private readonly logger = new Logger('RfiSync');
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;
  /**
   * Bound where no transaction is ambient (construction): a read asked for from a handler must not
   * run inside the handler's unit-of-work scope, committed or rolled back by then.
   */
  private readonly detached = AsyncResource.bind((rfiId: string) => this.readLogged(rfiId));

  constructor(
    private readonly rfis: PartnerRfisService,
    private readonly projection: RfiProjection,
  ) {}

  /** GET /v1/rfis/{rfi_id} with its items into the projection; a 404 (withdrawn, spec 3.2) recorded. */
  async read(rfiId: string, source: 'read' | 'reconciliation' = 'read'): Promise<RfiWriteOutcome | 'gone'> {
    try {
      return await this.projection.applyRead(await this.rfis.get(rfiId), source);
    } catch (error) {
      if (!(error instanceof PartnerNotFoundError)) throw error;
      await this.projection.markWithdrawn(rfiId);
      return 'gone';
    }
  }

  /** Reads the RFI soon, in the background (after the caller's transaction). */
  readSoon(rfiId: string): void {
    if (this.closed) return;
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.detached(rfiId));
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await settleWithin([...this.inFlight], SETTLE_BOUND_MS);
  }

  private async readLogged(rfiId: string): Promise<void> {
    try {
      await this.read(rfiId);
    } catch (error) {
      this.logger.warn(
        `reading RFI ${rfiId} failed (${(error as Error).message}); the reconciliation job reads it again`,
      );
    }
  }
}

/** Waits for `work` to settle, or for `boundMs`, whichever comes first (a shutdown must not hang on a slow pass). */
export async function settleWithin(work: ReadonlyArray<Promise<unknown>>, boundMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise((resolve) => (timer = setTimeout(resolve, boundMs)));
  try {
    await Promise.race([Promise.allSettled(work), bound]);
  } finally {
    clearTimeout(timer);
  }
}
