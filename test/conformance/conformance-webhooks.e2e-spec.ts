/**
 * The kit's webhook receiver against the sandbox over real sockets (evidence §11 N22): skipped,
 * saying why, without one; with one, the four delivery probes (and the registration probe, whose
 * own suite is conformance-webhooks-registration) match the sandbox; and each delivery probe fails
 * against a sandbox variant that does what the probe rules out (an extra header, a null phone, a
 * body that is not the one signed, a delivery before the answer).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  sandboxConformanceHooks,
  signPartnerWebhook,
  type ConformanceReport,
  type PartnerSandbox,
} from '@partner-payments/testing';
import { receiverFor, runAgainst, usePinnedSandbox } from './conformance.fixture';
import { apiHeaders, startRewritingProxy } from './divergent-stand-in.fixture';
import { startRelay, type Change } from './webhook-relay.fixture';

const PROBES = [
  'webhooks.user-created.after-answer',
  'webhooks.user-created.headers',
  'webhooks.user-created.signature',
  'webhooks.user-created.phone-empty',
];
/** The delivery probes and the registration one (evidence §11 N23), which reads the same delivery. */
const ALL = [...PROBES, 'webhooks.registration.last-wins'];
const outcomes = (report: ConformanceReport) =>
  Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));
const differencesOf = (report: ConformanceReport, id: string) =>
  report.results.find((r) => r.id === id)?.differences;

describe('conformance webhook probes (evidence §11 N22)', () => {
  let sandbox: PartnerSandbox;
  usePinnedSandbox((s) => (sandbox = s));

  /** The four probes with deliveries passing through a relay that applies `change`. */
  async function runThroughRelay(change: Change): Promise<ConformanceReport> {
    const relay = await startRelay(change);
    const hooks = {
      ...sandboxConformanceHooks(sandbox.baseUrl),
      async pointWebhooksAt(url: string) {
        relay.setTarget(url);
        await sandbox.control.setWebhookUrl(relay.url);
        return () => sandbox.control.setWebhookUrl(null);
      },
    };
    try {
      return await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
        only: PROBES,
        hooks,
        webhooks: receiverFor(sandbox),
      });
    } finally {
      await relay.close();
    }
  }

  it('without a receiver the five are skipped, saying what to pass, never matched', async () => {
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, { only: ['webhooks.'] });
    expect(outcomes(report)).toEqual(Object.fromEntries(ALL.map((id) => [id, 'skipped'])));
    for (const r of report.results)
      expect(r.explanation).toMatch(
        /needs a webhook receiver: --webhook-listen <host:port> and --webhook-secret-env/,
      );
    expect((await sandbox.control.counters()).created.users).toBe(0);
  });

  it('with the receiver, the hooks point the sandbox at it: all five match, the target is put back and the secret is never in the report', async () => {
    await sandbox.control.setWebhookUrl('http://127.0.0.1:9/before');
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      only: ['webhooks.'],
      webhooks: receiverFor(sandbox),
    });
    expect(outcomes(report)).toEqual(Object.fromEntries(ALL.map((id) => [id, 'match'])));
    // One user for the five: they share the delivery.
    expect(report.created.filter((c) => c.kind === 'user')).toHaveLength(1);
    expect(await sandbox.control.webhookUrl()).toBe('http://127.0.0.1:9/before');
    expect(JSON.stringify(report)).not.toContain(sandbox.webhookSecret);
    await sandbox.control.setWebhookUrl(null);
  });

  it('a receiver that cannot listen (its port taken) fails the run before any probe, leaving the target alone', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      await expect(
        runAgainst(sandbox, sandbox.sandboxBaseUrl, {
          only: ['webhooks.'],
          webhooks: { ...receiverFor(sandbox), port },
        }),
      ).rejects.toThrow(/EADDRINUSE/);
      expect(await sandbox.control.webhookUrl()).toBeNull();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a relay that passes deliveries on unchanged keeps all four matching (the relay itself is not a divergence)', async () => {
    const report = await runThroughRelay((raw, headers) => ({ raw, headers }));
    expect(outcomes(report)).toEqual(Object.fromEntries(PROBES.map((id) => [id, 'match'])));
  });

  it('an extra header of the sender (an event-name header) fails the headers probe only', async () => {
    const report = await runThroughRelay((raw, headers) => ({
      raw,
      headers: { ...headers, 'x-event-name': 'user.created' },
    }));
    expect(report.results.filter((r) => r.outcome !== 'match').map((r) => r.id)).toEqual([
      'webhooks.user-created.headers',
    ]);
    expect(differencesOf(report, 'webhooks.user-created.headers')).toEqual([
      'headers: expected exactly content-type, x-signature-sha256, got content-type, x-event-name, x-signature-sha256',
    ]);
  });

  it('phone null (signed as sent) fails the phone probe only', async () => {
    const report = await runThroughRelay((raw, headers) => {
      const body = JSON.parse(raw) as { data: Record<string, unknown> };
      const changed = JSON.stringify({ ...body, data: { ...body.data, phone: null } });
      return {
        raw: changed,
        headers: { ...headers, 'x-signature-sha256': signPartnerWebhook(changed, sandbox.webhookSecret) },
      };
    });
    expect(report.results.filter((r) => r.outcome !== 'match').map((r) => r.id)).toEqual([
      'webhooks.user-created.phone-empty',
    ]);
    expect(differencesOf(report, 'webhooks.user-created.phone-empty')).toEqual([
      'body.data.phone: expected "", got null',
    ]);
  });

  it('a body that is not the one signed (re-serialised with spaces) fails the signature probe', async () => {
    const report = await runThroughRelay((raw, headers) => ({
      raw: JSON.stringify(JSON.parse(raw), null, 1),
      headers,
    }));
    expect(report.results.filter((r) => r.outcome !== 'match').map((r) => r.id)).toEqual([
      'webhooks.user-created.signature',
    ]);
  });

  it('a partner that delivers before answering the create fails the after-answer probe', async () => {
    // A stand-in that holds the create's 201 until the sandbox has delivered user.created and the
    // receiver has answered it, as a partner sending the event inside the request would.
    const synchronous = await startRewritingProxy(sandbox.sandboxBaseUrl, {
      setUp: (app) =>
        app.post('/sandbox/v1/users', async (req, res) => {
          const headers = apiHeaders(req);
          const answer = await fetch(`${sandbox.sandboxBaseUrl}/v1/users`, {
            method: 'POST',
            headers,
            body: req.body as Buffer,
          });
          const text = await answer.text();
          await sandbox.control.flushWebhooks();
          res.status(answer.status).type('json').end(text);
        }),
    });
    try {
      const report = await runAgainst(sandbox, synchronous.baseUrl, {
        only: PROBES,
        webhooks: receiverFor(sandbox),
      });
      expect(report.results.filter((r) => r.outcome !== 'match').map((r) => r.id)).toEqual([
        'webhooks.user-created.after-answer',
      ]);
      expect(differencesOf(report, 'webhooks.user-created.after-answer')?.[0]).toMatch(
        /^delivery: arrived [\d.]+ ms before the create's answer \(expected after it: the event is asynchronous\)$/,
      );
    } finally {
      await synchronous.close();
    }
  });
});
