import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PartnerInboxOperator, PartnerPayoutOutbox } from '@partner-payments/typeorm';
import type { Request, Response } from 'express';
import { Access } from '../common/access.guard';
import { sendPage, setConsoleHeaders } from './console-html.util';
import { operationsPage } from './console-operations.util';
import { ConsoleSessions } from './console-session.service';

/**
 * The console's page for what the jobs left to a person: payouts left needs_review and dead inbox
 * entries, with the dead entries' retry (the same call as POST /inbox/dead/retry). Its session
 * and CSRF rules are console.controller.ts's.
 */
@ApiExcludeController()
@Access('public')
@Controller('console')
export class ConsoleOperationsController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly outbox: PartnerPayoutOutbox,
    private readonly inbox: PartnerInboxOperator,
  ) {}

  @Get('operations')
  async operations(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.sessions.current(req);
    if (!session) return res.redirect(303, '/console');
    await this.show(res, session, retryNotice(req.query));
  }

  @Post('inbox/dead/retry')
  async retry(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.sessions.current(req);
    const form = (req.body ?? {}) as Record<string, unknown>;
    if (!this.sessions.csrfMatches(session, form._csrf)) {
      setConsoleHeaders(res);
      res
        .status(403)
        .type('text/plain')
        .send('403 Forbidden: missing or invalid CSRF token (or no session).');
      return;
    }
    const eventId = typeof form.event_id === 'string' && form.event_id !== '' ? form.event_id : null;
    const { requeued, redelivery } = await this.inbox.redeliverDead(eventId === null ? null : [eventId]);
    const { ran, processed, failed, dead } = redelivery;
    const counts = new URLSearchParams({
      requeued: String(requeued),
      ran: ran ? '1' : '0',
      processed: String(processed),
      failed: String(failed),
      dead: String(dead),
    });
    res.redirect(303, `/console/operations?${counts.toString()}`);
  }

  private async show(res: Response, session: string, notice?: string): Promise<void> {
    const [review, dead] = await Promise.all([this.outbox.needsReview(100), this.inbox.deadLetters(100)]);
    sendPage(res, 200, operationsPage(review, dead, this.sessions.csrfToken(session), notice));
  }
}

/**
 * The retry's outcome, rebuilt from the counts in the redirect's query: integers only, so a link
 * cannot put words of its own on the page.
 */
function retryNotice(query: Request['query']): string | undefined {
  const n = (key: string) =>
    typeof query[key] === 'string' && /^\d{1,9}$/.test(query[key]) ? query[key] : null;
  const [requeued, processed, failed, dead] = ['requeued', 'processed', 'failed', 'dead'].map(n);
  if (requeued === null) return undefined;
  return query.ran === '1'
    ? `Requeued ${requeued}: processed ${processed ?? 0}, failed ${failed ?? 0}, dead ${dead ?? 0}.`
    : `Requeued ${requeued}: the redelivery job is running elsewhere and takes them on its next run.`;
}
