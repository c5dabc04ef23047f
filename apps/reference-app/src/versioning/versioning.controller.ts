import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Access } from '../common/access.guard';
import { VersionPinService, type PinState } from './version-pin.service';

@Access('operator')
@Controller('versioning')
export class VersioningController {
  constructor(private readonly pins: VersionPinService) {}

  /** Runs the pinning job now and returns the pin state. */
  @Post('pin')
  @HttpCode(200)
  pin(): Promise<PinState> {
    return this.pins.pin();
  }

  @Get()
  state(): Promise<PinState> {
    return this.pins.state();
  }
}
