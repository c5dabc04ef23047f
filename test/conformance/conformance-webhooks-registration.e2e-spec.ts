/**
 * The registration probe against the sandbox over real sockets (evidence §11 N23: one URL per
 * client, the last registration wins): the kit registers a previous receiver and then the current
 * one; it matches the sandbox, is skipped against a partner without --webhook-previous-listen, and
 * fails, alone, against a stand-in that keeps delivering to the first URL registered as well.
 */
import {
  sandboxConformanceHooks,
  type ConformanceHooks,
  type ConformanceReport,
  type PartnerSandbox,
} from '@partner-payments/testing';
import { receiverFor, runAgainst, usePinnedSandbox } from './conformance.fixture';
import { startRelay } from './webhook-relay.fixture';

const PROBE = 'webhooks.registration.last-wins';
const resultOf = (report: ConformanceReport, id = PROBE) => report.results.find((r) => r.id === id);

describe('conformance webhook registration probe (evidence §11 N23)', () => {
  let sandbox: PartnerSandbox;
  usePinnedSandbox((s) => (sandbox = s));

  /** The sandbox's hooks with pointWebhooksAt recorded: each URL registered, in order. */
  function recordingHooks(registered: string[]): ConformanceHooks {
    const hooks = sandboxConformanceHooks(sandbox.baseUrl);
    return {
      ...hooks,
      async pointWebhooksAt(url, clientUuid) {
        registered.push(url);
        return hooks.pointWebhooksAt!(url, clientUuid);
      },
    };
  }

  it('on the sandbox the kit registers a previous receiver, then the current one: the probe matches and the target is put back', async () => {
    await sandbox.control.setWebhookUrl('http://127.0.0.1:9/before');
    const registered: string[] = [];
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      only: ['webhooks.'],
      hooks: recordingHooks(registered),
      webhooks: receiverFor(sandbox),
    });
    expect(report.results.map((r) => [r.id, r.outcome]).filter(([, o]) => o !== 'match')).toEqual([]);
    expect(resultOf(report)?.outcome).toBe('match');
    // Two different receivers, the previous first; one user for the delivery probes and this one.
    expect(registered).toHaveLength(2);
    expect(new Set(registered).size).toBe(2);
    expect(report.created.filter((c) => c.kind === 'user')).toHaveLength(1);
    expect(await sandbox.control.webhookUrl()).toBe('http://127.0.0.1:9/before');
    await sandbox.control.setWebhookUrl(null);
  });

  it('options.webhooks.previous puts the previous receiver where the operator says', async () => {
    const registered: string[] = [];
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      only: [PROBE],
      hooks: recordingHooks(registered),
      webhooks: { ...receiverFor(sandbox), previous: { host: 'localhost', port: 0 } },
    });
    expect(resultOf(report)?.outcome).toBe('match');
    expect(registered[0]).toMatch(/^http:\/\/localhost:\d+/);
    expect(registered[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
  });

  it('against a partner (no hooks) without the previous receiver it is skipped, saying how to run it, before any create', async () => {
    const before = (await sandbox.control.counters()).created.users;
    const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
      only: [PROBE],
      hooks: undefined,
      webhooks: receiverFor(sandbox),
    });
    expect(resultOf(report)?.outcome).toBe('skipped');
    expect(resultOf(report)?.explanation).toMatch(
      /registration is out of band \(spec 6\.1\.1\), so register a URL reaching --webhook-previous-listen <host:port> at the partner, then re-register the one reaching --webhook-listen/,
    );
    expect((await sandbox.control.counters()).created.users).toBe(before);
  });

  it('a partner that keeps delivering to the first URL registered as well fails this probe only', async () => {
    // A relay registered once at the sandbox, passing each delivery on to every URL the kit has
    // registered: the previous receiver keeps getting them after the re-registration.
    const relay = await startRelay();
    const hooks: ConformanceHooks = {
      ...sandboxConformanceHooks(sandbox.baseUrl),
      async pointWebhooksAt(url) {
        relay.addTarget(url);
        await sandbox.control.setWebhookUrl(relay.url);
        return () => sandbox.control.setWebhookUrl(null);
      },
    };
    try {
      const report = await runAgainst(sandbox, sandbox.sandboxBaseUrl, {
        only: ['webhooks.'],
        hooks,
        webhooks: receiverFor(sandbox),
      });
      expect(report.results.filter((r) => r.outcome !== 'match').map((r) => r.id)).toEqual([PROBE]);
      expect(resultOf(report)?.outcome).toBe('diverge');
      expect(resultOf(report)?.differences).toEqual([
        expect.stringMatching(
          /^previous URL http:\/\/127\.0\.0\.1:\d+\/webhooks\/partner: got \d+ deliver(y|ies) \(user\.created[a-z_., ]*\) within \d+ ms of the create, expected none: the registration before the last one still receives$/,
        ),
      ]);
    } finally {
      await relay.close();
    }
  });
});
