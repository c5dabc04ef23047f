import {
  BadRequestException,
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { PartnerPayoutsService } from '@partner-payments/nestjs';
import type { PartnerPayoutPreview } from '@partner-payments/nestjs/models';
import { isUUID } from 'class-validator';
import { Access } from '../common/access.guard';
import { ApiJsonBodyResponses, ApiPartnerFailureResponses } from '../common/api-responses.decorator';
import { ErrorBodyDto } from '../common/error-body.dto';
import { addLogFields } from '../observability/log-context.util';
import {
  CreatePayoutDto,
  PAYOUT_AMOUNT,
  PAYOUT_AMOUNT_MESSAGE,
  type PayoutResponse,
} from './create-payout.dto';
import { PayoutAnswerDto, PayoutPreviewDto } from './payout-answers.dto';
import { toPayoutResponse } from './payout-response.util';
import { PayoutsService } from './payouts.service';

/** The app's own API for its clients: one of APP_API_KEYS as X-Api-Key (where your own auth goes). */
@ApiTags('payouts')
@Access('caller')
@Controller('payouts')
export class PayoutsController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly partnerPayouts: PartnerPayoutsService,
  ) {}

  /**
   * GET /payouts/preview?virtual_account_id&recipient_id&amount: the partner's fee preview, read
   * through (evidence §6: creates nothing). The partner's own sandbox refuses every preview; that
   * 400 passes through as PartnerRefused. The amount follows POST /payouts' rule (positive, at most
   * 2 decimals): a zero amount is our caller's mistake, named here, not a partner failure.
   */
  @Get('preview')
  @ApiOperation({
    summary: "The partner's fee preview for a payout, read through (creates nothing)",
    description:
      "The partner's own sandbox refuses every preview (fee profiles at or above 100%): that refusal passes through as PartnerRefused.",
  })
  @ApiQuery({ name: 'virtual_account_id', schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'recipient_id', schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'amount', schema: { type: 'string', pattern: PAYOUT_AMOUNT.source, example: '100.00' } })
  @ApiOkResponse({ type: PayoutPreviewDto, description: "the partner's preview, as it sent it" })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'a bad or unknown parameter, each named' })
  @ApiPartnerFailureResponses()
  async preview(@Query() query: Record<string, unknown>): Promise<PartnerPayoutPreview> {
    const problems: string[] = [];
    const va = typeof query.virtual_account_id === 'string' ? query.virtual_account_id : '';
    const recipient = typeof query.recipient_id === 'string' ? query.recipient_id : '';
    const amount = typeof query.amount === 'string' ? query.amount : '';
    if (!isUUID(va)) problems.push('virtual_account_id must be a UUID');
    if (!isUUID(recipient)) problems.push('recipient_id must be a UUID');
    if (!PAYOUT_AMOUNT.test(amount)) problems.push(PAYOUT_AMOUNT_MESSAGE);
    const unknown = Object.keys(query).filter(
      (k) => !['virtual_account_id', 'recipient_id', 'amount'].includes(k),
    );
    for (const k of unknown) problems.push(`${k} is not a known parameter`);
    if (problems.length) throw new BadRequestException(problems);
    // A partner failure is answered by its cause by PartnerErrorFilter (common/partner-error.filter.ts).
    return this.partnerPayouts.preview(va, { amount, recipient_id: recipient });
  }

  /**
   * Required Idempotency-Key (UUID v4, the format the partner requires, spec 8): it is what makes
   * a client's retry safe, so the app does not invent one for the caller.
   */
  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Creates a payout at the partner, once per Idempotency-Key',
    description:
      'The key is stored before the partner is called and sent with the call: a retry with the same key returns the same payout and never creates a second one.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description: 'UUID v4; send the same key when retrying',
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiCreatedResponse({
    type: PayoutAnswerDto,
    description: 'the stored payout (a replay of the key: the same payout)',
  })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'a bad field or a missing Idempotency-Key, each named',
  })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description:
      'the partner is still working on this key (retry with the same key), or PayoutNeedsReview: the request stayed pending past PAYOUT_REDRIVE_MAX_AGE_HOURS and is not sent again',
  })
  @ApiUnprocessableEntityResponse({ type: ErrorBodyDto, description: 'the key was used with another body' })
  @ApiJsonBodyResponses()
  @ApiBadGatewayResponse({
    type: ErrorBodyDto,
    description:
      'the partner did not answer (5xx, 429, timeout, reset), or refused our credentials or account: retry with the same key',
  })
  @ApiResponse({
    status: '4XX',
    type: ErrorBodyDto,
    description:
      "the partner refused the payout: its status, `error: 'PartnerRefused'`; the key is marked rejected",
  })
  async create(
    @Headers('idempotency-key') key: string | undefined,
    @Body() dto: CreatePayoutDto,
  ): Promise<PayoutResponse> {
    if (!key || !isUUID(key.trim(), '4')) {
      throw new BadRequestException([
        'Idempotency-Key header must be a UUID v4 (send the same key when retrying)',
      ]);
    }
    return toPayoutResponse(await this.payouts.create(key.trim().toLowerCase(), dto));
  }

  @Get(':payoutId')
  @ApiOperation({ summary: 'The stored payout' })
  @ApiOkResponse({
    type: PayoutAnswerDto,
    description: 'the payout as stored here (webhooks and reconciliation keep it current)',
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'no payout of that id is stored here' })
  async get(@Param('payoutId') payoutId: string): Promise<PayoutResponse> {
    addLogFields({ payout_id: payoutId });
    return toPayoutResponse(await this.payouts.get(payoutId));
  }
}
