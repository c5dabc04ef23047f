import { createHash } from 'node:crypto';
import type { PartnerRateBudget, PartnerRateLimit } from '@partner-payments/nestjs/transport';
import { insertIfAbsent, returningRows } from '@partner-payments/typeorm/sql';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';

/**
 * The partner's rate limit is per account, across every endpoint (evidence §1: 20 requests/s, burst
 * 50, 429 above), so every replica of the app must spend one budget: an in-process bucket per
 * replica would let two replicas send twice the limit. This bucket is one row of
 * `partner_rate_budget`, refilled and taken from by a single `UPDATE ... RETURNING`: atomic on
 * PostgreSQL (row lock) and on a SQLite file shared by processes (one writer at a time). Time is
 * the database's clock, so replicas on hosts whose clocks differ still agree. One statement per
 * partner request; if it fails the library paces this process alone (see PartnerRateLimiter).
 */
export class DatabaseRateBudget implements PartnerRateBudget {
  constructor(
    private readonly uow: PartnerUnitOfWork,
    /** Identifies the partner account without storing its credentials. */
    readonly accountKey: string,
  ) {}

  /**
   * A stable key per partner account (base URL and api key), not reversible to the key. The URL is
   * normalised first (host case, default port, trailing slashes): replicas configured with
   * `https://Partner.example/sandbox/` and `https://partner.example/sandbox` are one account, and
   * two buckets would let them send twice the limit together.
   */
  static accountKeyFor(apiBaseUrl: string, apiKey: string): string {
    const base = normalisedBaseUrl(apiBaseUrl);
    return createHash('sha256').update(`${base}\n${apiKey}`).digest('hex').slice(0, 32);
  }

  async reserve(limit: PartnerRateLimit): Promise<number> {
    let tokens = await this.take(limit);
    if (tokens === null) {
      await this.uow.run((m) =>
        insertIfAbsent(m, this.uow.kind, 'partner_rate_budget', 'account_key', {
          account_key: this.accountKey,
          tokens: limit.burst,
          refilled_ms: Date.now(),
        }),
      );
      tokens = await this.take(limit);
    }
    if (tokens === null) throw new Error('partner_rate_budget row missing after insert');
    return tokens >= 0 ? 0 : Math.ceil((-tokens / limit.requestsPerSecond) * 1000);
  }

  /** Refills by the time elapsed, takes one token; the tokens left (negative: callers queued), or null without a row. */
  private async take(limit: PartnerRateLimit): Promise<number | null> {
    const rows = await this.uow.run((m) =>
      returningRows<{ tokens: number | string }>(
        m,
        this.uow.kind === 'postgres' ? TAKE_POSTGRES : TAKE_SQLITE,
        [limit.burst, limit.requestsPerSecond, this.accountKey],
      ),
    );
    return rows.length === 1 ? Number(rows[0].tokens) : null;
  }
}

function normalisedBaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return raw; // not a URL: the module refuses such a base URL at boot anyway
  }
}

const TAKE_POSTGRES = `
  UPDATE partner_rate_budget
  SET tokens = LEAST($1::float8, tokens + GREATEST(0, clock.now_ms - refilled_ms) * $2::float8 / 1000.0) - 1,
      refilled_ms = GREATEST(refilled_ms, clock.now_ms)
  FROM (SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint AS now_ms) AS clock
  WHERE account_key = $3
  RETURNING tokens`;

/**
 * SQLite fixes 'now' for the duration of one statement: both assignments see the same instant, and
 * both use it as the same whole millisecond. The refill once used the fractional instant while
 * refilled_ms kept it truncated, so every take counted the lost fraction (0-1 ms) again: about
 * +0.01 token a take at 20/s, 1% over the partner's limit (evidence §1) under sustained load.
 */
const SQLITE_NOW_MS = `CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)`;
const TAKE_SQLITE = `
  UPDATE partner_rate_budget
  SET tokens = MIN(?, tokens + MAX(0, ${SQLITE_NOW_MS} - refilled_ms) * ? / 1000.0) - 1,
      refilled_ms = MAX(refilled_ms, ${SQLITE_NOW_MS})
  WHERE account_key = ?
  RETURNING tokens`;
