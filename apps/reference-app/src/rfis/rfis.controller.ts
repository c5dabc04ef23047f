import { Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Access } from '../common/access.guard';
import { ApiPartnerFailureResponses } from '../common/api-responses.decorator';
import { ErrorBodyDto } from '../common/error-body.dto';
import { RfiListDto, RfiReconciliationSummaryDto, RfiWithItemsDto } from './rfi-answers.dto';
import { RfiProjection } from './rfi-projection.service';
import { parseOpenRfiQuery, requireUuid } from './rfi-query.rules';
import { RfiReconciliationService, type RfiReconciliationSummary } from './rfi-reconciliation.service';
import { itemView, rfiView } from './rfi-view.util';

/** The RFIs the app holds, for the people who answer them: operator-only (common/access.guard.ts). */
@ApiTags('rfis')
@Access('operator')
@Controller('rfis')
export class RfisController {
  constructor(
    private readonly projection: RfiProjection,
    private readonly reconciliation: RfiReconciliationService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Open RFIs (pending, answered), soonest deadline first',
    description: 'From the projection kept by rfi.* events and the RFI reconciliation job; at most 500.',
  })
  @ApiQuery({ name: 'user_id', required: false, schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'blocking', required: false, schema: { type: 'string', enum: ['true', 'false'] } })
  @ApiQuery({
    name: 'due_before',
    required: false,
    schema: { type: 'string', example: '2026-12-31T12:00:00Z' },
    description: 'a date or an instant with its zone',
  })
  @ApiOkResponse({ type: RfiListDto, description: 'the open RFIs the app holds' })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'a bad or unknown parameter, each named' })
  async list(@Query() query: Record<string, unknown>): Promise<RfiListDto> {
    const rows = await this.projection.listOpen(parseOpenRfiQuery(query));
    const now = new Date();
    return { rfis: rows.map((r) => rfiView(r, now)) };
  }

  /** Runs one RFI reconciliation pass now (the scheduled job's code, under the same lock). */
  @Post('reconciliation/run')
  @HttpCode(200)
  @ApiOperation({
    summary: 'One RFI reconciliation pass now',
    description:
      "Reads the partner's RFI list and every RFI that is new, changed or marked stale (the job, under its lock).",
  })
  @ApiOkResponse({ type: RfiReconciliationSummaryDto, description: 'what the pass did' })
  @ApiPartnerFailureResponses()
  run(): Promise<RfiReconciliationSummary> {
    return this.reconciliation.runOnce();
  }

  @Get(':rfi_id')
  @ApiOperation({ summary: 'One RFI with its items, as the app holds it (no answer values)' })
  @ApiParam({ name: 'rfi_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: RfiWithItemsDto, description: 'the RFI and its items, in display order' })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'rfi_id is not a UUID' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the app holds no such RFI' })
  async get(@Param('rfi_id') rfiIdParam: string): Promise<RfiWithItemsDto> {
    const rfiId = requireUuid(rfiIdParam, 'rfi_id');
    const found = await this.projection.find(rfiId);
    if (!found) throw new NotFoundException([`rfi_id ${rfiId} is not an RFI the app holds`]);
    return { ...rfiView(found.rfi), items: found.items.map(itemView) };
  }
}
