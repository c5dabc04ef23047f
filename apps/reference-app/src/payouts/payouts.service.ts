import { createHash } from 'node:crypto';
import {
  BadGatewayException,
  ConflictException,
  HttpException,
  Injectable,
  Logger,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  PartnerApiError,
  PartnerConflictError,
  PartnerConnectionError,
  PartnerLocalValidationError,
  PartnerPayoutsService,
  PartnerRateLimitError,
  PartnerServerError,
} from '@partner-payments/nestjs';
import { Not } from 'typeorm';
import { PayoutEntity, PayoutRequestEntity } from '../database/entities';
import { insertIfAbsent } from '../database/insert-if-absent.util';
import { UnitOfWork } from '../database/unit-of-work.service';
import type { CreatePayoutDto } from './create-payout.dto';
import { PayoutProjection } from './payout.projection';

/** sha256 of the fields that make a payout request: the same key with another body is refused. */
export function payoutRequestFingerprint(dto: CreatePayoutDto): string {
  return createHash('sha256')
    .update(JSON.stringify([dto.virtual_account_id, dto.recipient_id, dto.amount, dto.currency]))
    .digest('hex');
}

/**
 * POST /payouts, crash-safe: the Idempotency-Key row is committed BEFORE the partner is called,
 * and the same key is sent to the partner. If we crash after the partner created the payout but
 * before we stored it, the client's retry (same key) finds the pending row, calls the partner
 * again with the same key, and the partner answers with the original payout instead of creating
 * a second one (provider-facts: "Replaying an Idempotency-Key returns the original result").
 */
@Injectable()
export class PayoutsService {
  private readonly logger = new Logger('Payouts');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly projection: PayoutProjection,
    private readonly partnerPayouts: PartnerPayoutsService,
  ) {}

  async create(idempotencyKey: string, dto: CreatePayoutDto): Promise<PayoutEntity> {
    const request = await this.reserve(idempotencyKey, payoutRequestFingerprint(dto), dto);
    if (request.state === 'created' && request.payoutId) {
      const existing = await this.find(request.payoutId);
      if (existing) return existing; // a replay of a finished request: the stored payout
    }

    // Outside any transaction: never hold the database while waiting on the network.
    let payout;
    try {
      payout = await this.partnerPayouts.create(
        dto.virtual_account_id,
        { amount: dto.amount, currency: dto.currency, recipient_id: dto.recipient_id },
        { idempotencyKey },
      );
    } catch (error) {
      throw await this.translate(idempotencyKey, error);
    }

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
        { state: 'created', payoutId: payout.payoutId, lastError: null, updatedAt: new Date() },
      );
      return row;
    });
  }

  async find(payoutId: string): Promise<PayoutEntity | null> {
    return this.uow.run((m) => m.findOne(PayoutEntity, { where: { payoutId } }));
  }

  async get(payoutId: string): Promise<PayoutEntity> {
    const row = await this.find(payoutId);
    if (!row) throw new NotFoundException(`payout ${payoutId} is not known here`);
    return row;
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
   * Partner errors to HTTP.
   * - 5xx, 429, timeout, connection error: the outcome is unknown. The key stays 'pending' and a
   *   retry with the same key is safe (the partner replays the original answer).
   * - 409: the partner is still working on this key (a concurrent identical request) or refuses it
   *   as a conflict. Either way a retry with the same key gets the partner's stored answer, so the
   *   key stays 'pending' instead of being marked refused.
   * - 401/403: our credentials or our account, not the caller's request: 502, key refused.
   * - other 4xx and local validation: the partner refused this request: same status, key refused.
   * A refusal never overwrites a key that another request already completed.
   */
  private async translate(idempotencyKey: string, error: unknown): Promise<HttpException> {
    const message = error instanceof Error ? error.message : String(error);
    const unknownOutcome =
      error instanceof PartnerServerError ||
      error instanceof PartnerConnectionError ||
      error instanceof PartnerRateLimitError ||
      !(error instanceof PartnerApiError || error instanceof PartnerLocalValidationError);
    if (unknownOutcome) {
      this.logger.warn(`payout create with key ${idempotencyKey} has an unknown outcome: ${message}`);
      return new BadGatewayException(
        `partner did not answer (${message}); retry with the same Idempotency-Key, it cannot create a second payout`,
      );
    }
    if (error instanceof PartnerConflictError) {
      return new ConflictException(
        `partner answered 409 (${message}); retry with the same Idempotency-Key to get its stored answer`,
      );
    }
    const status =
      error instanceof PartnerApiError && error.status && error.status >= 400 && error.status < 500
        ? error.status
        : 400;
    if (status === 401 || status === 403) {
      // Our credentials or account (issue 9 defect 2): not the caller's request, and nothing was
      // created, so the key stays usable for a retry once the configuration is fixed.
      this.logger.error(`partner refused our credentials or account (${status}) creating a payout`);
      return new BadGatewayException(
        `partner refused our credentials or account (${status}); this is the app's configuration, not the request: retry with the same Idempotency-Key once fixed`,
      );
    }
    await this.uow.run((m) =>
      m.update(
        PayoutRequestEntity,
        { idempotencyKey, state: Not('created') },
        { state: 'rejected', lastError: message.slice(0, 2000), updatedAt: new Date() },
      ),
    );
    return new HttpException(
      { statusCode: status, message: `partner refused the payout: ${message}`, error: 'PartnerRefused' },
      status,
    );
  }
}
