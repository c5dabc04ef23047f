import { BadRequestException, Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Access } from '../common/access.guard';
import { ApiJsonBodyResponses } from '../common/api-responses.decorator';
import { ErrorBodyDto } from '../common/error-body.dto';
import {
  PartnerInboxOperator,
  type PartnerInboxDrainSummary,
  type PartnerInboxPruneSummary,
} from '@partner-payments/typeorm';
import {
  DeadEntriesDto,
  INBOX_MAX_IDS as MAX_IDS,
  PruneSummaryDto,
  RedeliverySummaryDto,
  RetryDeadAnswerDto,
  RetryDeadBodyDto,
} from './inbox-answers.dto';

@ApiTags('inbox')
@Access('operator')
@Controller('inbox')
export class InboxController {
  constructor(private readonly inbox: PartnerInboxOperator) {}

  /** GET /inbox/dead?limit=: the dead entries, oldest first (ids, event, attempts, last error; no body). */
  @Get('dead')
  @ApiOperation({ summary: 'The dead inbox entries, oldest first (never a body)' })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_IDS, default: 100 },
  })
  @ApiOkResponse({ type: DeadEntriesDto, description: 'at most `limit` dead entries' })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'a bad limit or an unknown parameter, named' })
  async dead(@Query() query: Record<string, unknown>): Promise<{ entries: DeadEntryView[] }> {
    const problems = unknownKeys(query, ['limit']);
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_IDS)
      problems.push(`limit must be an integer from 1 to ${MAX_IDS}`);
    if (problems.length) throw new BadRequestException(problems);
    const entries = await this.inbox.deadLetters(limit);
    return {
      entries: entries.map((e) => ({
        event_id: e.eventId,
        event: e.eventName,
        attempts: e.attempts,
        last_error: e.lastError,
        received_at: e.receivedAt.toISOString(),
      })),
    };
  }

  /**
   * POST /inbox/dead/retry { event_ids?: string[] }: after the cause is fixed, puts those dead
   * entries (all of them without `event_ids`) back in the queue and runs the redelivery job now.
   * When another replica holds the job at that moment (`redelivery.ran` false), its next run
   * takes them.
   */
  @Post('dead/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Makes dead entries due again and runs the redelivery job now',
    description:
      'After the cause is fixed. Attempts are kept: a handler still failing leaves the entry dead after one more try. Ids that are not dead are left alone.',
  })
  @ApiBody({ type: RetryDeadBodyDto, required: false })
  @ApiOkResponse({
    type: RetryDeadAnswerDto,
    description: 'entries requeued and what the redelivery run did',
  })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'bad event_ids or an unknown field, named' })
  @ApiJsonBodyResponses()
  async retryDead(
    @Body() body: Record<string, unknown> | undefined,
  ): Promise<{ requeued: number; redelivery: PartnerInboxDrainSummary }> {
    const input = body ?? {};
    const problems = unknownKeys(input, ['event_ids']);
    const ids = input.event_ids;
    const valid =
      ids === undefined ||
      (Array.isArray(ids) &&
        ids.length >= 1 &&
        ids.length <= MAX_IDS &&
        ids.every((id) => typeof id === 'string' && id.length > 0));
    if (!valid) problems.push(`event_ids must be an array of 1 to ${MAX_IDS} non-empty strings`);
    if (problems.length) throw new BadRequestException(problems);
    return this.inbox.redeliverDead((ids as string[] | undefined) ?? null);
  }

  /** Runs the inbox-prune job now: deletes processed entries older than INBOX_RETENTION_DAYS. */
  @Post('prune')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Runs the inbox-prune job now: deletes processed entries older than INBOX_RETENTION_DAYS',
  })
  @ApiOkResponse({ type: PruneSummaryDto, description: 'what the prune run did' })
  prune(): Promise<PartnerInboxPruneSummary> {
    return this.inbox.prune();
  }

  /** Runs the failed-inbox redelivery job now. Entries younger than 10 s that never ran are left to their delivery. */
  @Post('redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Runs the failed-inbox redelivery job now' })
  @ApiOkResponse({ type: RedeliverySummaryDto, description: 'what the redelivery run did' })
  redeliver(): Promise<PartnerInboxDrainSummary> {
    return this.inbox.drain();
  }

  /** Entries per state (pending, processed, failed, dead). */
  @Get()
  @ApiOperation({ summary: 'Inbox entries per state (pending, processed, failed, dead)' })
  @ApiOkResponse({
    description: 'entry counts by state',
    schema: {
      type: 'object',
      additionalProperties: { type: 'integer' },
      example: { pending: 0, processed: 42, failed: 0, dead: 0 },
    },
  })
  summary(): Promise<Record<string, number>> {
    return this.inbox.countByState();
  }
}

interface DeadEntryView {
  event_id: string;
  event: string;
  attempts: number;
  last_error: string | null;
  received_at: string;
}

function unknownKeys(input: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(input)
    .filter((k) => !known.includes(k))
    .map((k) => `${k} is not a known parameter`);
}
