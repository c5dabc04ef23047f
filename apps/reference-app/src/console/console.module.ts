import { Module } from '@nestjs/common';
import { RfisModule } from '../rfis/rfis.module';
import { ConsoleController } from './console.controller';
import { ConsoleSessions } from './console-session.service';

/** GET /console: the page for the people who answer RFIs (console.controller.ts). */
@Module({
  imports: [RfisModule],
  controllers: [ConsoleController],
  providers: [ConsoleSessions],
})
export class ConsoleModule {}
