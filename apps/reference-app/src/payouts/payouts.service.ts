import { createHash } from 'node:crypto';
import {
  BadGatewayException,
  ConflictException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { PartnerPayoutsService, type CreatePartnerPayoutInput } from '@partner-payments/nestjs';
import { In } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PayoutEntity } from './payout.entity';
import { PayoutRequestEntity } from './payout-request.entity';
import { fromStoredText, toStoredText, PartnerUnitOfWork } from '@partner-payments/typeorm';
import { insertIfAbsent } from '@partner-payments/typeorm/sql';
import type { CreatePayoutDto } from './create-payout.dto';
import { addLogFields } from '../observability/log-context.util';
import { classifyPartnerFailure } from './partner-failure.util';
import { PayoutProjection } from './payout-projection.service';

/**
 * sha256 of the fields that make a payout request: the same key with another body is refused. The
 * memo counts (the same key with another memo is another request); a request without one keeps
 * the fingerprint it had before memos existed, so a key stored by the previous version still
 * replays after the upgrade. JSON.stringify escapes lone surrogates, so no two memos share it.
 */
export function payoutRequestFingerprint(dto: CreatePayoutDto): string {
  const fields: string[] = [dto.virtual_account_id, dto.recipient_id, dto.amount, dto.currency];
  const memo = dto.extra_info?.memo;
  if (memo !== undefined) fields.push(memo);
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/**
 * The memo as payout_requests.memo keeps it: its JSON string escape (toStoredText, the inbox's
 * lossless form of partner text), so the re-drive sends exactly the string the caller sent, on
 * both databases (PostgreSQL refuses U+0000 in text, and UTF-8 storage would turn a lone surrogate
 * into U+FFFD: another body under the same key). Null without a memo.
 */
export function storedMemo(dto: CreatePayoutDto): string | null {
  const memo = dto.extra_info?.memo;
  return memo === undefined ? null : toStoredText(memo);
}

/** The request as stored in payout_requests, as the body POST /payouts received. */
export function storedPayoutBody(row: PayoutRequestEntity): CreatePayoutDto {
  return {
    virtual_account_id: row.virtualAccountId,
    recipient_id: row.recipientId,
    amount: row.amount,
    currency: row.currency,
    ...(row.memo === null ? {} : { extra_info: { memo: fromStoredText(row.memo) } }),
  };
}

/**
 * The partner's execute body (evidence §6 [T1 ExecutePayoutService]) for a request: the one place
 * POST /payouts and the re-drive build it, so a re-send carries the same body under the same key.
 * extra_info only with a memo: `extra_info: {}` from the caller is the same request as none.
 */
export function partnerPayoutBody(dto: CreatePayoutDto): CreatePartnerPayoutInput {
  const memo = dto.extra_info?.memo;
  return {
    amount: dto.amount,
    currency: dto.currency,
    recipient_id: dto.recipient_id,
    ...(memo === undefined ? {} : { extra_info: { memo } }),
  };
}

/**
 * POST /payouts, crash-safe: the Idempotency-Key row is committed BEFORE the partner is called,
 * and the same key is sent to the partner. If we crash after the partner created the payout but
 * before we stored it, the client's retry (same key) or the outbox re-drive (payout-redrive.service.ts)
 * finds the pending row, calls the partner again with the same key, and the partner answers with
 * the original payout instead of creating a second one (provider-facts: "Replaying an
 * Idempotency-Key returns the original result").
 */
@Injectable()
export class PayoutsService {
  private readonly logger = new Logger('Payouts');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: PartnerUnitOfWork,
    private readonly projection: PayoutProjection,
    private readonly partnerPayouts: PartnerPayoutsService,
  ) {}

  async create(idempotencyKey: string, dto: CreatePayoutDto): Promise<PayoutEntity> {
    const request = await this.reserve(idempotencyKey, payoutRequestFingerprint(dto), dto);
    if (request.state === 'created' && request.payoutId) {
      const existing = await this.find(request.payoutId);
      if (existing) return existing; // a replay of a finished request: the stored payout
    }
    const age = Date.now() - request.createdAt.getTime();
    if (
      request.state === 'needs_review' ||
      (request.state === 'pending' && age > this.config.redrive.maxAgeMs)
    ) {
      // The partner may have forgotten this key by now: sending it again could create a second payout.
      if (request.state === 'pending')
        await this.markNeedsReview(idempotencyKey, 'a retry came past the maximum age');
      throw new ConflictException({
        statusCode: 409,
        error: 'PayoutNeedsReview',
        message:
          'this request stayed pending past PAYOUT_REDRIVE_MAX_AGE_HOURS: whether the partner created it is unknown and an operator must review it; it is not sent again',
      });
    }
    try {
      return await this.submit(idempotencyKey, dto);
    } catch (error) {
      throw await this.translate(idempotencyKey, error);
    }
  }

  /**
   * Sends a stored request to the partner with its key and stores the answer: the payout through
   * the projection, the request marked created, in one transaction. The one path of POST /payouts
   * and of the re-drive. Partner errors are thrown as they are.
   *
   * A WIRE payout from an account at the ACT bank needs extra_info.memo (evidence §6 [T1
   * REVISION-DOCS §4]). That is not checked here: the app keeps no recipients (their rail is known
   * only to the partner, and no event reports them, spec 6.3), so knowing it would cost a partner
   * read per payout. The partner's 400 names extra_info.memo and is answered as PartnerRefused, the request
   * marked rejected.
   */
  async submit(idempotencyKey: string, dto: CreatePayoutDto): Promise<PayoutEntity> {
    // Outside any transaction: never hold the database while waiting on the network.
    const payout = await this.partnerPayouts.create(dto.virtual_account_id, partnerPayoutBody(dto), {
      idempotencyKey,
    });
    return this.uow.transaction(async (m) => {
      const { row } = await this.projection.apply({
        payoutId: payout.payoutId,
        status: payout.status || 'CREATED',
        source: 'create',
        virtualAccountId: dto.virtual_account_id,
        recipientId: payout.recipientId ?? dto.recipient_id,
        userId: payout.userId,
        amount: payout.amount ?? dto.amount,
        currency: payout.currency ?? dto.currency,
        idempotencyKey,
        referenceNumber: payout.referenceNumber,
        errorCode: payout.errorCode,
      });
      await m.update(
        PayoutRequestEntity,
        { idempotencyKey },
        {
          state: 'created',
          payoutId: payout.payoutId,
          lastError: null,
          nextAttemptAt: null,
          updatedAt: new Date(),
        },
      );
      // Issue 13: the rest of this request (or re-drive of one row) logs with the payout's id.
      addLogFields({ payout_id: row.payoutId });
      return row;
    });
  }

  /** The partner refused the request. Never overwrites a key another request already completed. */
  async markRejected(idempotencyKey: string, reason: string): Promise<void> {
    await this.setStateIfOpen(idempotencyKey, 'rejected', reason);
  }

  /** Left to an operator: pending past the maximum age, the outcome at the partner unknown. True when this call marked it. */
  async markNeedsReview(idempotencyKey: string, reason: string): Promise<boolean> {
    return this.setStateIfOpen(idempotencyKey, 'needs_review', reason);
  }

  async find(payoutId: string): Promise<PayoutEntity | null> {
    return this.uow.run((m) => m.findOne(PayoutEntity, { where: { payoutId } }));
  }

  async get(payoutId: string): Promise<PayoutEntity> {
    const row = await this.find(payoutId);
    if (!row) throw new NotFoundException(`payout ${payoutId} is not known here`);
    return row;
  }

  private async setStateIfOpen(
    idempotencyKey: string,
    state: 'rejected' | 'needs_review',
    reason: string,
  ): Promise<boolean> {
    const result = await this.uow.run((m) =>
      m.update(
        PayoutRequestEntity,
        { idempotencyKey, state: In(['pending', 'rejected']) },
        { state, lastError: reason.slice(0, 2000), nextAttemptAt: null, updatedAt: new Date() },
      ),
    );
    return result.affected === 1;
  }

  /** Stores the key (committed) or finds it; the same key with another body is refused. */
  private async reserve(
    idempotencyKey: string,
    fingerprint: string,
    dto: CreatePayoutDto,
  ): Promise<PayoutRequestEntity> {
    return this.uow.transaction(async (m) => {
      const now = new Date();
      await insertIfAbsent(m, this.uow.kind, 'payout_requests', 'idempotency_key', {
        idempotency_key: idempotencyKey,
        fingerprint,
        virtual_account_id: dto.virtual_account_id,
        recipient_id: dto.recipient_id,
        amount: dto.amount,
        currency: dto.currency,
        // Kept for the re-drive's re-send (the same body under the same key); never logged or answered.
        memo: storedMemo(dto),
        state: 'pending',
        payout_id: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      });
      const row = await m.findOneOrFail(PayoutRequestEntity, { where: { idempotencyKey } });
      if (row.fingerprint !== fingerprint) {
        throw new UnprocessableEntityException(
          'Idempotency-Key was already used with a different request body',
        );
      }
      return row;
    });
  }

  /**
   * Partner errors to HTTP, by classifyPartnerFailure:
   * - unknown outcome (5xx, 429, timeout, connection error): 502; the key stays 'pending' and a
   *   retry with the same key is safe (the partner replays the original answer).
   * - in progress (409): 409; the key stays 'pending', a retry with it gets the partner's answer.
   * - our configuration (401/403): 502, logged as an error; nothing was created, the key stays usable.
   * - refused (other 4xx, local validation): the same status, the key marked rejected.
   */
  private async translate(idempotencyKey: string, error: unknown): Promise<HttpException> {
    const failure = classifyPartnerFailure(error);
    const { message } = failure;
    switch (failure.kind) {
      case 'unknown-outcome':
        this.logger.warn(`payout create with key ${idempotencyKey} has an unknown outcome: ${message}`);
        return new BadGatewayException(
          `partner did not answer (${message}); retry with the same Idempotency-Key, it cannot create a second payout`,
        );
      case 'in-progress':
        return new ConflictException(
          `partner answered 409 (${message}); retry with the same Idempotency-Key to get its stored answer`,
        );
      case 'our-configuration':
        this.logger.error(`partner refused our credentials or account (${failure.status}) creating a payout`);
        return new BadGatewayException(
          `partner refused our credentials or account (${failure.status}); this is the app's configuration, not the request: retry with the same Idempotency-Key once fixed`,
        );
      case 'refused': {
        await this.markRejected(idempotencyKey, message);
        const status = failure.status ?? 400;
        return new HttpException(
          { statusCode: status, message: `partner refused the payout: ${message}`, error: 'PartnerRefused' },
          status,
        );
      }
    }
  }
}
