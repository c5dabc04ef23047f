import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppMetrics } from './app-metrics.service';

/**
 * GET /metrics in the Prometheus text format. Not marked with @Access: like every unmarked route
 * it is operator-only (Authorization: Bearer <OPERATOR_TOKEN>, common/access.guard.ts), since the
 * figures describe the business (payout volumes, failure rates). Configure the scrape job with it.
 */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: AppMetrics) {}

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)' })
  @ApiProduces('text/plain; version=0.0.4; charset=utf-8')
  @ApiOkResponse({
    schema: { type: 'string' },
    description: 'partner calls, tokens, limiter waits, webhooks, inbox, jobs, process',
  })
  async scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
