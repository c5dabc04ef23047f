import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../common/access.guard';
import { ApiPartnerFailureResponses } from '../common/api-responses.decorator';
import { PinStateDto } from './pin-state.dto';
import { PartnerVersionPin, type PartnerVersionPinState } from '@partner-payments/typeorm';

@ApiTags('versioning')
@Access('operator')
@Controller('versioning')
export class VersioningController {
  constructor(private readonly pins: PartnerVersionPin) {}

  /** Runs the pinning job now and returns the pin state. */
  @Post('pin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Runs the version-pinning job now (spec 9.3) and answers the pin state' })
  @ApiOkResponse({ type: PinStateDto, description: 'the pin state after the run; `action` says what it did' })
  @ApiPartnerFailureResponses()
  pin(): Promise<PartnerVersionPinState> {
    return this.pins.pin();
  }

  @Get()
  @ApiOperation({ summary: 'The pin state, without calling the partner' })
  @ApiOkResponse({ type: PinStateDto, description: 'the stored pin state (`action`: read)' })
  state(): Promise<PartnerVersionPinState> {
    return this.pins.state();
  }
}
