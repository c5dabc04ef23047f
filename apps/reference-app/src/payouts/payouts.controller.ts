import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { CreatePayoutDto, type PayoutResponse } from './create-payout.dto';
import { toPayoutResponse } from './payout.response';
import { PayoutsService } from './payouts.service';

@Controller('payouts')
export class PayoutsController {
  constructor(private readonly payouts: PayoutsService) {}

  /**
   * Required Idempotency-Key (UUID v4, the format the partner requires, spec 8): it is what makes
   * a client's retry safe, so the app does not invent one for the caller.
   */
  @Post()
  @HttpCode(201)
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
  async get(@Param('payoutId') payoutId: string): Promise<PayoutResponse> {
    return toPayoutResponse(await this.payouts.get(payoutId));
  }
}
