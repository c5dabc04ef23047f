import {
  BadGatewayException,
  ConflictException,
  HttpException,
  Injectable,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { PartnerPayoutsService, type PartnerPayout } from '@partner-payments/nestjs';
import {
  classifyPartnerFailure,
  partnerPayoutFingerprint,
  PartnerPayoutFailedError,
  PartnerPayoutKeyReusedError,
  PartnerPayoutNeedsReviewError,
  PartnerPayoutOutbox,
  PartnerUnitOfWork,
  toStoredText,
  type PartnerOutboxPayoutContext,
  type PartnerOutboxPayoutRequest,
} from '@partner-payments/typeorm';
import { PayoutEntity } from './payout.entity';
import type { CreatePayoutDto } from './create-payout.dto';
import { addLogFields } from '../observability/log-context.util';
import { PayoutProjection } from './payout-projection.service';

/** POST /payouts' body as the outbox's request: extra_info only with a memo (`extra_info: {}` is none). */
export function outboxRequest(dto: CreatePayoutDto): PartnerOutboxPayoutRequest {
  const memo = dto.extra_info?.memo;
  return {
    virtualAccountId: dto.virtual_account_id,
    body: {
      recipient_id: dto.recipient_id,
      amount: dto.amount,
      currency: dto.currency,
      ...(memo === undefined ? {} : { extra_info: { memo } }),
    },
  };
}

/** The outbox's fingerprint of a POST /payouts body (what the stored key is checked against). */
export function payoutRequestFingerprint(dto: CreatePayoutDto): string {
  return partnerPayoutFingerprint(outboxRequest(dto));
}

/** The memo as partner_payout_requests.memo keeps it (toStoredText); null without one. */
export function storedMemo(dto: CreatePayoutDto): string | null {
  const memo = dto.extra_info?.memo;
  return memo === undefined ? null : toStoredText(memo);
}

/**
 * POST /payouts through @partner-payments/typeorm's PartnerPayoutOutbox: the key, fingerprint and
 * body are committed before the partner is called and the same key is sent, so a crash between the
 * partner's creation and our write is repaired by the caller's retry or the re-drive
 * (payout-redrive.service.ts) without a second payout (spec 8). The payout is written to the app's
 * own projection in `onCreated`, in the transaction that marks the outbox row created.
 *
 * A WIRE payout from an account at the ACT bank needs extra_info.memo (evidence §6 [T1
 * REVISION-DOCS §4]). That is not checked here: the app keeps no recipients (their rail is known
 * only to the partner, and no event reports them, spec 6.3), so knowing it would cost a partner
 * read per payout. The partner's 400 names extra_info.memo and is answered as PartnerRefused, the
 * request marked rejected.
 */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly projection: PayoutProjection,
    private readonly outbox: PartnerPayoutOutbox,
    private readonly partnerPayouts: PartnerPayoutsService,
  ) {}

  async create(idempotencyKey: string, dto: CreatePayoutDto): Promise<PayoutEntity> {
    const created: { row?: PayoutEntity } = {};
    try {
      const submitted = await this.outbox.submit(idempotencyKey, outboxRequest(dto), {
        onCreated: async (payout, _manager, request) => {
          created.row = await this.project(payout, request);
        },
      });
      if (created.row) return created.row;
      // A replay of a finished request: the stored payout. Without one here (an operator's
      // resolution, a row removed), the partner's own record of it is stored now.
      const existing = await this.find(submitted.payoutId);
      if (existing) return existing;
      const payout = await this.partnerPayouts.get(submitted.payoutId);
      return this.uow.transaction(() => this.project(payout, { idempotencyKey, ...outboxRequest(dto) }));
    } catch (error) {
      throw translate(error);
    }
  }

  /** The outbox's onCreated for the re-drive: the partner's answer into the payouts projection. */
  async project(payout: PartnerPayout, request: PartnerOutboxPayoutContext): Promise<PayoutEntity> {
    const { row } = await this.projection.apply({
      payoutId: payout.payoutId,
      status: payout.status || 'CREATED',
      source: 'create',
      virtualAccountId: request.virtualAccountId,
      recipientId: payout.recipientId ?? request.body.recipient_id,
      userId: payout.userId,
      amount: payout.amount ?? request.body.amount,
      currency: payout.currency ?? request.body.currency,
      idempotencyKey: request.idempotencyKey,
      referenceNumber: payout.referenceNumber,
      errorCode: payout.errorCode,
    });
    // The rest of this request (or re-drive of one row) logs with the payout's id.
    addLogFields({ payout_id: row.payoutId });
    return row;
  }

  async find(payoutId: string): Promise<PayoutEntity | null> {
    return this.uow.run((m) => m.findOne(PayoutEntity, { where: { payoutId } }));
  }

  async get(payoutId: string): Promise<PayoutEntity> {
    const row = await this.find(payoutId);
    if (!row) throw new NotFoundException(`payout ${payoutId} is not known here`);
    return row;
  }
}

/**
 * The outbox's typed errors to HTTP (partner failures by PartnerFailureKind):
 * - unknown outcome (5xx, 429, timeout, connection error): 502; the key stays 'pending' and a
 *   retry with the same key is safe (the partner replays the original answer).
 * - in progress (409): 409; the key stays 'pending', a retry with it gets the partner's answer.
 * - our configuration (401/403): 502; nothing was created, the key stays usable.
 * - refused (other 4xx, local validation): the same status, the key marked rejected.
 */
function translate(error: unknown): HttpException {
  if (error instanceof PartnerPayoutKeyReusedError)
    return new UnprocessableEntityException('Idempotency-Key was already used with a different request body');
  if (error instanceof PartnerPayoutNeedsReviewError)
    return new ConflictException({
      statusCode: 409,
      error: 'PayoutNeedsReview',
      message:
        'this request stayed pending past PAYOUT_REDRIVE_MAX_AGE_HOURS: whether the partner created it is unknown and an operator must review it; it is not sent again',
    });
  // Anything else (storing the answer failed, the read of an already-created payout) is classified
  // the same way: a failure to store leaves the row pending, so it is an unknown outcome to retry.
  const failure = error instanceof PartnerPayoutFailedError ? error.failure : classifyPartnerFailure(error);
  const { kind, message, status } = failure;
  switch (kind) {
    case 'unknown-outcome':
      return new BadGatewayException(
        `partner did not answer (${message}); retry with the same Idempotency-Key, it cannot create a second payout`,
      );
    case 'in-progress':
      return new ConflictException(
        `partner answered 409 (${message}); retry with the same Idempotency-Key to get its stored answer`,
      );
    case 'our-configuration':
      return new BadGatewayException(
        `partner refused our credentials or account (${status}); this is the app's configuration, not the request: retry with the same Idempotency-Key once fixed`,
      );
    case 'refused':
      return new HttpException(
        {
          statusCode: status ?? 400,
          message: `partner refused the payout: ${message}`,
          error: 'PartnerRefused',
        },
        status ?? 400,
      );
  }
}
