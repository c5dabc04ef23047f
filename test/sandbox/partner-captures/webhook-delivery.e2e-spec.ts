import { individual, startReceiver, useWorld } from '../sandbox.fixture';

/**
 * A delivery as the partner's real one arrived (evidence §11 N22 [T3raw webhooks/32]): signed,
 * with content-type and the signature as its only partner headers.
 */
describe('sandbox: webhook delivery headers (evidence §11 N22)', () => {
  const world = useWorld({}, 'all');

  it('user.created arrives signed, with content-type, x-signature-sha256 and a node user agent, nothing else of the partner’s', async () => {
    const created = await world.api.call('POST', '/v1/users', { body: individual() });
    expect(created.status).toBe(201);
    await world.sandbox.control.flushWebhooks();
    const [delivery] = world.receiver.events('user.created');
    expect(delivery.validSignature).toBe(true);
    expect(delivery.body.data.status).toBe('CREATED');
    expect(delivery.body.data).toMatchObject({
      type: 'individual',
      email: 'ada@example.com',
      phone: '+15555550100',
    });
    const headers = Object.keys(delivery.headers).sort();
    // What fetch adds on its own (host, connection, length, accept...) aside, no timestamp and no
    // event-name header: the event is read from the body.
    const partnerHeaders = headers.filter(
      (h) =>
        ![
          'host',
          'connection',
          'content-length',
          'accept',
          'accept-language',
          'accept-encoding',
          'sec-fetch-mode',
        ].includes(h),
    );
    expect(partnerHeaders).toEqual(['content-type', 'user-agent', 'x-signature-sha256']);
    expect(delivery.headers['user-agent']).toBe('node');
    expect(delivery.headers['content-type']).toBe('application/json');
  });

  it('N22: user.created names the user as the partner’s did: its email, and phone "" when none was set', async () => {
    const created = await world.api.call('POST', '/v1/users', {
      body: individual({ email: 'no-phone@example.com', phone: undefined }),
    });
    expect(created.status).toBe(201);
    await world.sandbox.control.flushWebhooks();
    const delivery = world.receiver
      .events('user.created')
      .find((d) => d.body.data.user_id === created.body.id);
    expect(delivery?.body.data).toMatchObject({
      type: 'individual',
      email: 'no-phone@example.com',
      phone: '',
      status: 'CREATED',
    });
  });

  it('N23: one URL per account, the last one set wins: the old URL gets nothing more', async () => {
    const second = await startReceiver(['whsec_e2e_secret']);
    try {
      await world.sandbox.control.flushWebhooks();
      const before = world.receiver.received.length;
      await world.sandbox.control.setWebhookUrl(second.url);
      await world.api.call('POST', '/v1/users', { body: individual() });
      await world.sandbox.control.flushWebhooks();
      expect(second.events('user.created')).toHaveLength(1);
      expect(world.receiver.received.length).toBe(before);
    } finally {
      await world.sandbox.control.setWebhookUrl(world.receiver.url);
      await second.close();
    }
  });
});
