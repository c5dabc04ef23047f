import { Module } from '@nestjs/common';
import { RfisModule } from '../rfis/rfis.module';
import { ConsoleController } from './console.controller';
import { ConsoleOperationsController } from './console-operations.controller';
import { ConsoleSessions } from './console-session.service';

/** GET /console: the page for the people who answer RFIs, and what the jobs left to them. */
@Module({
  imports: [RfisModule],
  controllers: [ConsoleController, ConsoleOperationsController],
  providers: [ConsoleSessions],
})
export class ConsoleModule {}
