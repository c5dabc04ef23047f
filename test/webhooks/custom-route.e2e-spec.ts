/**
 * An app with its own webhook routes (docs/nestjs/webhooks.md, "Your own route"): the guard + @VerifiedPartnerBody() + accept(), and
 * handle(rawBody, headers) with toHttpException(). The ready-made route is left out.
 */
import { Controller, HttpCode, Post, Req, UseGuards, type RawBodyRequest } from '@nestjs/common';
import { PartnerWebhookError, PartnerWebhookGuard, VerifiedPartnerBody } from '@partner-payments/nestjs';
import { PartnerWebhookIngestService } from '@partner-payments/nestjs/webhooks';
import type { Request } from 'express';
import { documentedEventBodies, ProbeInbox, sign } from './webhook-events.fixture';
import { startWebhookTestApp, type WebhookTestApp } from './webhook-app.fixture';

@Controller('partner')
class MyWebhookController {
  constructor(private readonly webhooks: PartnerWebhookIngestService) {}

  @Post('guarded')
  @HttpCode(200)
  @UseGuards(PartnerWebhookGuard)
  async guarded(@VerifiedPartnerBody() raw: Buffer) {
    try {
      const result = await this.webhooks.accept(raw);
      return { ok: true, status: result.status };
    } catch (e) {
      if (e instanceof PartnerWebhookError) throw e.toHttpException(); // 400 / 500 inbox_unavailable
      throw e;
    }
  }

  // A route that forgot the guard: the decorator must not hand unverified bytes on.
  @Post('unguarded')
  @HttpCode(200)
  async unguarded(@VerifiedPartnerBody() raw: Buffer) {
    return this.webhooks.accept(raw);
  }

  @Post('raw')
  @HttpCode(200)
  async raw(@Req() req: RawBodyRequest<Request>) {
    try {
      const { status, eventId, name } = await this.webhooks.handle(req.rawBody, req.headers, {
        waitForProcessing: true,
      });
      return { status, eventId, name };
    } catch (e) {
      if (e instanceof PartnerWebhookError) throw e.toHttpException();
      throw e;
    }
  }
}

describe('webhooks on the host app own routes', () => {
  let t: WebhookTestApp;
  let base: string;
  const inbox = new ProbeInbox();
  beforeAll(async () => {
    t = await startWebhookTestApp({ controllers: [MyWebhookController], inboxStore: inbox });
    base = t.url.replace(/\/webhooks\/partner$/, '');
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    inbox.delayMs = 0;
    inbox.failWith = null;
  });

  const post = (path: string, raw: string, signature: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json', 'x-signature-sha256': signature },
    });

  it('leaves the ready-made route out', async () => {
    const raw = JSON.stringify(documentedEventBodies()[0].body);
    expect((await post('/webhooks/partner', raw, sign(raw, 'whsec_e2e'))).status).toBe(404);
  });

  it('PartnerWebhookGuard + accept(): 200 for a good signature, 401 with a reason otherwise', async () => {
    const raw = JSON.stringify(documentedEventBodies()[0].body);
    const ok = await post('/partner/guarded', raw, sign(raw, 'whsec_e2e'));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, status: 'accepted' });
    const bad = await post('/partner/guarded', raw, sign(raw, 'other'));
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ reason: 'mismatch' });
    await t.service.processing.drain();
    expect(t.handlers.log.count('user.created')).toBe(1);
  });

  it('@VerifiedPartnerBody() without PartnerWebhookGuard: 500 with the fix, nothing recorded', async () => {
    const raw = JSON.stringify(documentedEventBodies()[4].body);
    const before = inbox.recorded.size;
    const res = await post('/partner/unguarded', raw, sign(raw, 'whsec_e2e'));
    expect(res.status).toBe(500);
    expect(((await res.json()) as { message: string }).message).toContain('@UseGuards(PartnerWebhookGuard)');
    expect(inbox.recorded.size).toBe(before);
  });

  it('handle(rawBody, headers): processed before answering, typed errors mapped to HTTP', async () => {
    const raw = JSON.stringify(documentedEventBodies()[1].body);
    const ok = await post('/partner/raw', raw, sign(raw, 'whsec_e2e'));
    expect(await ok.json()).toMatchObject({ status: 'accepted', name: 'user.updated' });
    expect(t.handlers.log.count('user.updated')).toBe(1); // waitForProcessing: already handled
    expect((await post('/partner/raw', raw, sign(raw, 'whsec_e2e'))).status).toBe(200); // duplicate
    expect((await post('/partner/raw', raw, 'nothex')).status).toBe(401);
    const notJson = 'nope';
    expect((await post('/partner/raw', notJson, sign(notJson, 'whsec_e2e'))).status).toBe(400);
    expect(t.handlers.log.count('user.updated')).toBe(1);
  });

  it.each(['/partner/guarded', '/partner/raw'])(
    '%s: 2xx only once inbox.record completed; 500 (never 2xx) when it throws',
    async (path) => {
      inbox.delayMs = 100;
      const [first, second] = documentedEventBodies().slice(2, 4);
      const id = (b: Record<string, unknown>) => (b.data as { event_id: string }).event_id;
      const raw = JSON.stringify(first.body);
      const ok = await post(path, raw, sign(raw, 'whsec_e2e'));
      expect(ok.status).toBe(200);
      expect(inbox.recorded.has(id(first.body))).toBe(true);

      inbox.failWith = new Error('disk full');
      const raw2 = JSON.stringify(second.body);
      const failed = await post(path, raw2, sign(raw2, 'whsec_e2e'));
      expect(failed.status).toBe(500);
      expect(await failed.json()).toMatchObject({ code: 'inbox_unavailable', eventId: id(second.body) });
      await t.service.processing.drain();
      expect(t.handlers.log.count(second.name)).toBe(0);
    },
  );
});

describe('own route, app created without rawBody: true', () => {
  it('the guard answers 500 with the fix, never verifies re-serialised JSON, emits nothing', async () => {
    const t = await startWebhookTestApp({ controllers: [MyWebhookController], rawBody: false });
    try {
      const base = t.url.replace(/\/webhooks\/partner$/, '');
      const raw = JSON.stringify(documentedEventBodies()[0].body);
      for (const path of ['/partner/guarded', '/partner/raw']) {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          body: raw,
          headers: { 'content-type': 'application/json', 'x-signature-sha256': sign(raw, 'whsec_e2e') },
        });
        expect({ path, status: res.status }).toEqual({ path, status: 500 });
        expect(((await res.json()) as { message: string }).message).toContain('rawBody: true');
      }
      await t.service.processing.drain();
      expect(t.handlers.log.calls).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
