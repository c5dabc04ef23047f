import { Module } from '@nestjs/common';
import { RfiAnswersController } from './rfi-answers.controller';
import { RfiAnswering } from './rfi-answering.service';
import { RfiEventHandlers } from './rfi-event-handlers.service';
import { RfiJobs } from './rfi-jobs.service';
import { RfiMetrics } from './rfi-metrics.service';
import { RfiProjection } from './rfi-projection.service';
import { RfiReconciliationService } from './rfi-reconciliation.service';
import { RfiSync } from './rfi-sync.service';
import { RfiUpload } from './rfi-upload.service';
import { RfisController } from './rfis.controller';

/**
 * RFIs (spec 2.1-4.3, evidence §7, §9): the projection (rfis, rfi_items) kept from rfi.* events
 * and from its own reconciliation job, the operator endpoints that list, read and answer them
 * (answers and files go to the partner; the app keeps no answer and no file), and their gauges.
 * The database, the partner client, the job lock and the metrics come from global modules.
 */
@Module({
  controllers: [RfisController, RfiAnswersController],
  providers: [
    RfiProjection,
    RfiSync,
    RfiEventHandlers,
    RfiReconciliationService,
    RfiJobs,
    RfiAnswering,
    RfiUpload,
    RfiMetrics,
  ],
  exports: [RfiProjection, RfiSync, RfiReconciliationService, RfiAnswering, RfiUpload],
})
export class RfisModule {}
