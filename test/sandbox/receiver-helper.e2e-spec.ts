import {
  buildUserUpdated,
  signPartnerWebhook,
  startPartnerSandbox,
  startWebhookReceiver,
} from '@partner-payments/testing';

describe('startWebhookReceiver (helper for users’ tests)', () => {
  /** POSTs `body` to the receiver signed with `secret` (the HMAC of the exact bytes, spec 6.1.3). */
  const deliver = (url: string, body: string, secret: string) =>
    fetch(url, { method: 'POST', body, headers: { 'x-signature-sha256': signPartnerWebhook(body, secret) } });

  it('records sandbox deliveries with raw bytes, event, event_id and a verified signature', async () => {
    const receiver = await startWebhookReceiver({ secrets: ['s1'] });
    const sandbox = await startPartnerSandbox({ webhookUrl: receiver.url, webhookSecret: 's1' });
    try {
      const emittedAt = performance.timeOrigin + performance.now();
      const { eventId } = await sandbox.control.emitEvent('user.updated', { user_id: 'u1' });
      const [got] = await receiver.waitFor(1, { event: 'user.updated' });
      expect(got).toMatchObject({ event: 'user.updated', eventId, validSignature: true });
      // When it arrived, on the clock a caller compares its own answers with (the conformance kit's
      // after-answer probe, evidence §11 N22).
      expect(got.receivedAt).toBeGreaterThan(emittedAt);
      expect(got.receivedAt).toBeLessThanOrEqual(performance.timeOrigin + performance.now());
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
      await deliver(receiver.url, body, 'wrong');
      await deliver(receiver.url, 'not json', 'right');
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
        await deliver(receiver.url, body, '');
        const [got] = await receiver.waitFor(1);
        expect(got.raw).toBe(body);
        expect(got.validSignature).toBe(false);
        // A real secret added later (a list is mutable) verifies; the empty entry stays ignored.
        receiver.secrets.push('real');
        await deliver(receiver.url, body, 'real');
        await deliver(receiver.url, body, '');
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
