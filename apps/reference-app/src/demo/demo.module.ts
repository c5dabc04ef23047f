import { Module } from '@nestjs/common';
import { ReconciliationModule } from '../reconciliation/reconciliation.module';
import { DemoRunner } from './demo-runner.service';
import { RfiDemo } from './rfi-demo.service';

/** The scripted demo against the embedded sandbox (app-bootstrap.util.ts runs it after listen when DEMO applies). */
@Module({
  imports: [ReconciliationModule],
  providers: [DemoRunner, RfiDemo],
  exports: [DemoRunner],
})
export class DemoModule {}
