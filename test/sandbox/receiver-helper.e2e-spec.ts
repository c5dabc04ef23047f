import {
  buildUserUpdated,
  signPartnerWebhook,
  startPartnerSandbox,
  startWebhookReceiver,
} from '@partner-payments/testing';

describe('startWebhookReceiver (helper for users’ tests)', () => {
  it('records sandbox deliveries with raw bytes, event, event_id and a verified signature', async () => {
    const receiver = await startWebhookReceiver({ secrets: ['s1'] });
    const sandbox = await startPartnerSandbox({ webhookUrl: receiver.url, webhookSecret: 's1' });
    try {
      const { eventId } = await sandbox.control.emitEvent('user.updated', { user_id: 'u1' });
      const [got] = await receiver.waitFor(1, { event: 'user.updated' });
      expect(got).toMatchObject({ event: 'user.updated', eventId, validSignature: true });
      expect(got.headers['x-signature-sha256']).toBe(signPartnerWebhook(got.raw, 's1'));
      receiver.answerStatus = 503;
      await sandbox.control.emitEvent('user.updated', { user_id: 'u2' });
      const deliveries = await sandbox.control.waitForDeliveries({ count: 2 });
      expect(deliveries.map((d) => d.status)).toEqual([200, 503]);
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  it('flags a wrong signature and a non-JSON body', async () => {
    const receiver = await startWebhookReceiver({ secrets: 'right' });
    try {
      const body = JSON.stringify(buildUserUpdated({ user_id: 'u' }));
      await fetch(receiver.url, {
        method: 'POST',
        body,
        headers: { 'x-signature-sha256': signPartnerWebhook(body, 'wrong') },
      });
      await fetch(receiver.url, {
        method: 'POST',
        body: 'not json',
        headers: { 'x-signature-sha256': signPartnerWebhook('not json', 'right') },
      });
      const got = await receiver.waitFor(2);
      expect(got.map((g) => g.validSignature)).toEqual([false, true]);
      expect(got[1]).toMatchObject({ body: undefined, event: undefined });
      await expect(receiver.waitFor(3, { timeoutMs: 30 })).rejects.toThrow('2 of 3');
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ["'' (as `process.env.X ?? ''` gives when X is unset)", ''],
    ["['']", ['']],
    ['[]', []],
  ])(
    'with secrets %s, refuses a delivery signed with the empty key (a forgery anyone can compute)',
    async (_name, secrets: string | string[]) => {
      const receiver = await startWebhookReceiver({ secrets });
      try {
        const body = JSON.stringify(buildUserUpdated({ user_id: 'forged' }));
        await fetch(receiver.url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-signature-sha256': signPartnerWebhook(body, '') },
        });
        const [got] = await receiver.waitFor(1);
        expect(got.raw).toBe(body);
        expect(got.validSignature).toBe(false);
        // A real secret added later (a list is mutable) verifies; the empty entry stays ignored.
        receiver.secrets.push('real');
        await fetch(receiver.url, {
          method: 'POST',
          body,
          headers: { 'x-signature-sha256': signPartnerWebhook(body, 'real') },
        });
        await fetch(receiver.url, {
          method: 'POST',
          body,
          headers: { 'x-signature-sha256': signPartnerWebhook(body, '') },
        });
        const all = await receiver.waitFor(3);
        expect(all.map((g) => g.validSignature)).toEqual([false, true, false]);
      } finally {
        await receiver.close();
      }
    },
  );

  it('verifies the signature over the bytes as received, even bytes that are not valid UTF-8', async () => {
    const receiver = await startWebhookReceiver({ secrets: 'right' });
    try {
      const bytes = Buffer.concat([
        Buffer.from('{"event":"x","data":{"note":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}'),
      ]);
      await fetch(receiver.url, {
        method: 'POST',
        body: new Uint8Array(bytes),
        headers: { 'x-signature-sha256': signPartnerWebhook(bytes, 'right') },
      });
      const [got] = await receiver.waitFor(1);
      expect(got.validSignature).toBe(true);
      expect(Buffer.from(got.raw, 'utf8').equals(bytes)).toBe(false); // the decoded string lost the bytes
    } finally {
      await receiver.close();
    }
  });
});
