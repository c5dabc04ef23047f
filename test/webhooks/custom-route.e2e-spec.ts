/**
 * An app with its own webhook routes (README "Your own route"): the guard + accept(), and
 * handle(rawBody, headers) with toHttpException(). The ready-made route is left out.
 */
import { Controller, HttpCode, Post, Req, UseGuards, type RawBodyRequest } from '@nestjs/common';
import {
  getVerifiedPartnerBody,
  PartnerWebhookError,
  PartnerWebhookGuard,
  PartnerWebhookService,
} from '@partner-payments/nestjs';
import type { Request } from 'express';
import { documentedEventBodies, sign } from './webhook-fixtures';
import { startWebhookTestApp, type WebhookTestApp } from './webhook-test.app';

@Controller('partner')
class MyWebhookController {
  constructor(private readonly webhooks: PartnerWebhookService) {}

  @Post('guarded')
  @HttpCode(200)
  @UseGuards(PartnerWebhookGuard)
  async guarded(@Req() req: Request) {
    const result = await this.webhooks.accept(getVerifiedPartnerBody(req)!);
    return { ok: true, status: result.status };
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
  beforeAll(async () => {
    t = await startWebhookTestApp({ controllers: [MyWebhookController] });
    base = t.url.replace(/\/webhooks\/partner$/, '');
  });
  afterAll(async () => {
    await t?.close();
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
    await t.service.drain();
    expect(t.handlers.log.count('user.created')).toBe(1);
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
});
