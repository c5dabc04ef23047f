import { Controller, Get, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../common/access.guard';
import { RfiAnswering } from '../rfis/rfi-answering.service';
import { RfiProjection } from '../rfis/rfi-projection.service';
import { parseOpenRfiQuery, requireUuid } from '../rfis/rfi-query.rules';
import { RfiUpload } from '../rfis/rfi-upload.service';
import { itemView } from '../rfis/rfi-view.util';
import { sendPage, setConsoleHeaders } from './console-html.util';
import { answersFromForm } from './console-items.util';
import { listPage, notFoundPage, rfiPage, signInPage, type PageMessages } from './console-pages.util';
import { pageRefusal } from './console-refusal.util';
import { ConsoleSessions, PRE_SESSION_COOKIE, readCookie } from './console-session.service';

type Form = Record<string, unknown>;
const body = (req: Request): Form => (req.body && typeof req.body === 'object' ? (req.body as Form) : {});

/**
 * The operators' page: server-rendered HTML, no script. Public to AccessGuard because it runs its
 * own authentication (a session from the operator token, console-session.service.ts); every form
 * carries a CSRF token checked before anything else. Answers and files go through the same
 * services as PATCH /rfis/{rfi_id}/items and POST .../documents. Not part of the API document.
 */
@ApiExcludeController()
@Access('public')
@Controller('console')
export class ConsoleController {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly projection: RfiProjection,
    private readonly answering: RfiAnswering,
    private readonly uploads: RfiUpload,
  ) {}

  @Get()
  async home(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.sessions.current(req);
    if (!session) return this.showSignIn(req, res, 200);
    const rfis = await this.projection.listOpen(parseOpenRfiQuery({}));
    sendPage(res, 200, listPage(rfis, this.sessions.csrfToken(session)));
  }

  @Post('sign-in')
  signIn(@Req() req: Request, @Res() res: Response): void {
    const form = body(req);
    if (!this.sessions.csrfMatches(readCookie(req, PRE_SESSION_COOKIE), form._csrf))
      return this.forbidden(res);
    if (!this.sessions.open)
      return this.showSignIn(req, res, 401, 'The console is closed: OPERATOR_TOKEN is not configured.');
    if (!this.sessions.checkOperatorToken(form.token))
      return this.showSignIn(req, res, 401, 'That token is not the operator token (OPERATOR_TOKEN).');
    this.sessions.start(req, res);
    res.redirect(303, '/console');
  }

  @Post('sign-out')
  signOut(@Req() req: Request, @Res() res: Response): void {
    if (!this.sessions.csrfMatches(this.sessions.current(req), body(req)._csrf)) return this.forbidden(res);
    this.sessions.end(req, res);
    res.redirect(303, '/console');
  }

  @Get('rfis/:rfi_id')
  async rfi(@Param('rfi_id') rfiId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.sessions.current(req);
    if (!session) return res.redirect(303, '/console');
    const notice =
      req.query.done === 'answered'
        ? 'Answers sent.'
        : req.query.done === 'uploaded'
          ? 'File uploaded.'
          : undefined;
    await this.showRfi(res, session, rfiId, 200, { notice });
  }

  @Post('rfis/:rfi_id/answers')
  async answer(@Param('rfi_id') rfiId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.sessions.current(req);
    const form = body(req);
    if (!this.sessions.csrfMatches(session, form._csrf)) return this.forbidden(res);
    const found = await this.projection.find(requireUuid(rfiId, 'rfi_id'));
    const answers = answersFromForm(form, found?.items.map(itemView) ?? []);
    if (found && answers.length === 0)
      return this.showRfi(res, session!, rfiId, 400, { errors: ['Nothing to send: every answer is empty.'] });
    try {
      await this.answering.answer(rfiId, { items: answers });
    } catch (error) {
      return this.showRfi(res, session!, rfiId, ...pageRefusal(error, answers, this.logger));
    }
    res.redirect(303, `/console/rfis/${encodeURIComponent(rfiId)}?done=answered`);
  }

  @Post('rfis/:rfi_id/items/:item_id/documents')
  async upload(
    @Param('rfi_id') rfiId: string,
    @Param('item_id') itemId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const session = this.sessions.current(req);
    if (!this.sessions.csrfMatches(session, req.query._csrf)) return this.forbidden(res);
    try {
      await this.uploads.upload(rfiId, itemId, req);
    } catch (error) {
      // The upload concerns one item: every message of its refusal is shown beside it.
      const [status, messages] = pageRefusal(error, [], this.logger);
      const shown = [...(messages.itemErrors?.values() ?? [])].flat().concat(messages.errors ?? []);
      return this.showRfi(res, session!, rfiId, status, { itemErrors: new Map([[itemId, shown]]) });
    }
    res.redirect(303, `/console/rfis/${encodeURIComponent(rfiId)}?done=uploaded`);
  }

  private async showRfi(
    res: Response,
    session: string,
    rfiId: string,
    status: number,
    messages: PageMessages,
  ) {
    const found = await this.projection.find(requireUuid(rfiId, 'rfi_id'));
    if (!found) return sendPage(res, 404, notFoundPage(rfiId, this.sessions.csrfToken(session)));
    const items = found.items.map(itemView);
    sendPage(res, status, rfiPage(found.rfi, items, this.sessions.csrfToken(session), messages));
  }

  private showSignIn(req: Request, res: Response, status: number, error?: string): void {
    const csrf = this.sessions.csrfToken(this.sessions.preSession(req, res));
    sendPage(res, status, signInPage(csrf, error));
  }

  /** 403: no valid CSRF token (or no session to bind it to); nothing was read further or sent. */
  private forbidden(res: Response): void {
    setConsoleHeaders(res);
    res
      .status(403)
      .type('text/plain')
      .send('403 Forbidden: missing or invalid CSRF token (or no session). Reload the page.');
  }
}
