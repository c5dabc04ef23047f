/**
 * A webhook configuration the pipeline cannot use fails the boot, over a real app on a real port:
 * before, an `inboxStore` without the store's methods (`{}`, or the store's class) booted quietly
 * and every authentic delivery was answered 500, and the partner does not retry (spec 6.1.4), so
 * each event was lost; `webhooks.controller: 'false'` kept the route on. A Promise of a store is
 * refused too: it only worked because Nest awaits what the store's provider returns, which would
 * equally replace a store that has a `then` method by whatever that resolves to.
 */
import { PartnerConfigurationError } from '@partner-payments/nestjs/errors';
import { PartnerInMemoryInboxStore, type PartnerInboxStore } from '@partner-payments/nestjs/inbox';
import { documentedEventBodies, sign } from './webhook-events.fixture';
import { startWebhookTestApp, type WebhookTestApp, type WebhookTestAppOptions } from './webhook-app.fixture';

const SECRET = 'whsec_e2e';

async function deliver(url: string, raw: string) {
  const res = await fetch(url, {
    method: 'POST',
    body: raw,
    headers: { 'content-type': 'application/json', 'x-signature-sha256': sign(raw, SECRET) },
  });
  return { status: res.status, text: await res.text() };
}

/** Boots the host app; resolves to the boot error, or fails the test (closing the app) if it booted. */
async function bootError(options: WebhookTestAppOptions): Promise<PartnerConfigurationError> {
  let t: WebhookTestApp;
  try {
    t = await startWebhookTestApp(options);
  } catch (error) {
    expect(error).toBeInstanceOf(PartnerConfigurationError);
    return error as PartnerConfigurationError;
  }
  const body = JSON.stringify(documentedEventBodies()[0].body);
  const answer = await deliver(t.url, body).finally(() => t.close());
  throw new Error(`the app booted; an authentic delivery was answered ${answer.status}`);
}

const asStore = (value: unknown) => value as PartnerInboxStore;
const openStore = async (): Promise<PartnerInboxStore> => new PartnerInMemoryInboxStore();

describe('webhook options checked at boot (spec 6.1.4: a 5xx is a lost event)', () => {
  it('a valid store boots and acknowledges an authentic delivery over the socket (control)', async () => {
    const inbox = new PartnerInMemoryInboxStore();
    const t = await startWebhookTestApp({ inboxStore: inbox, controller: true });
    try {
      const { body } = documentedEventBodies()[0];
      const res = await deliver(t.url, JSON.stringify(body));
      expect(res.status).toBe(200);
      await t.service.processing.drain();
      expect(inbox.get((body.data as { event_id: string }).event_id)?.state).toBe('processed');
      expect(t.handlers.log.count('user.created')).toBe(1);
    } finally {
      await t.close();
    }
  });

  it.each<[string, () => unknown, string]>([
    ['{}', () => ({}), '(got an object without record(), process(), drain())'],
    [
      'a Promise of a store (async factory not awaited)',
      () => openStore(),
      '(got a Promise: await your factory and pass the store it resolves to)',
    ],
    [
      'the store class instead of an instance',
      () => PartnerInMemoryInboxStore,
      '(got the class PartnerInMemoryInboxStore: pass an instance',
    ],
  ])('inboxStore %s: the app refuses to boot, naming inboxStore', async (_label, make, got) => {
    const e = await bootError({ inboxStore: asStore(make()) });
    expect(e.field).toBe('inboxStore');
    expect(e.message).toContain(
      'PartnerPaymentsModule option "inboxStore" must be an object with record(), process(), drain() functions',
    );
    expect(e.message).toContain(got);
  });

  it("webhooks.controller 'false' (from an env var): the app refuses to boot, naming webhooks.controller", async () => {
    const e = await bootError({ controller: 'false' });
    expect(e.field).toBe('webhooks.controller');
    expect(e.message).toContain('must be true or false (got a string');
  });

  it('webhooks.controller false (a boolean) boots, and the route answers 404', async () => {
    const t = await startWebhookTestApp({ inboxStore: new PartnerInMemoryInboxStore(), controller: false });
    try {
      const res = await deliver(t.url, JSON.stringify(documentedEventBodies()[0].body));
      expect(res.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
