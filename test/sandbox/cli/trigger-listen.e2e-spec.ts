/**
 * `partner-sandbox trigger` and `partner-sandbox listen`: the built command against a sandbox CLI
 * on a real socket, into a receiver that checks each signature with the package's own verify helper
 * (spec 6.1.3) and reads the event's type and data.
 */
import type { ChildProcess } from 'node:child_process';
import {
  PartnerSandboxControlClient,
  SIGNATURE_HEADER,
  startWebhookReceiver,
  verifyPartnerWebhook,
  type WebhookReceiver,
} from '@partner-payments/testing';
import { buildProject } from '../../setup/build.fixture';
import { Api, individual } from '../sandbox.fixture';
import { closedPortUrl, outputMatching, runCli, spawnCli, startCli, stop } from './sandbox-cli.fixture';

const SECRET = 'whsec_cli_trigger_secret';
const CREDS = {
  apiKey: 'sandbox_test_api_key',
  clientId: 'sandbox_test_client',
  password: 'sandbox_test_password',
};

/** What the receiver got of `event`, each signature checked with verifyPartnerWebhook. */
function verified(receiver: WebhookReceiver, event: string) {
  return receiver.received
    .filter((r) => r.event === event)
    .map((r) => ({
      raw: r.raw,
      signature: r.headers[SIGNATURE_HEADER] as string | undefined,
      data: (r.body?.data ?? {}) as Record<string, unknown>,
      verifies: verifyPartnerWebhook(r.raw, r.headers[SIGNATURE_HEADER] as string | undefined, SECRET),
    }));
}

describe('partner-sandbox trigger and listen', () => {
  beforeAll(() => buildProject('libs/partner-payments-testing/tsconfig.lib.json'), 180000);

  const children: ChildProcess[] = [];
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await stop(child, 'SIGKILL');
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  async function receiverAnswering(answerStatus: number) {
    const receiver = await startWebhookReceiver({ secrets: SECRET, answerStatus });
    receivers.push(receiver);
    return receiver;
  }

  /** A sandbox CLI with the receiver's secret; users are decided at once (no step delay). */
  async function sandboxCli(args: string[]) {
    const sandbox = await startCli(['--port', '0', '--quiet', '--webhook-secret', SECRET, ...args]);
    children.push(sandbox.child);
    return { baseUrl: sandbox.baseUrl, control: new PartnerSandboxControlClient(sandbox.baseUrl) };
  }

  it('trigger payout.completed: a payout made for the purpose walks to COMPLETED; its event arrives signed', async () => {
    const receiver = await receiverAnswering(200);
    const { baseUrl } = await sandboxCli(['--authorized-banks', 'bank_a', '--webhook-url', receiver.url]);

    const run = await runCli(['trigger', 'payout.completed', '--base-url', baseUrl]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const payoutId = /trigger payout\.completed: payout (\S+)/.exec(run.stdout)?.[1];
    expect(payoutId).toBeDefined();
    expect(run.stdout).toMatch(/payout\.completed\s+\S+\s+delivered, answered 200/);

    const completed = verified(receiver, 'payout.completed');
    expect(completed.map((c) => c.verifies)).toEqual([true]);
    expect(completed[0].data).toMatchObject({ payout_id: payoutId, status: 'completed' });
    expect(completed[0].data.reference_number).toEqual(expect.any(String));
    // A real payout: created through the API (payout.created came first) and COMPLETED there.
    const created = verified(receiver, 'payout.created');
    expect(created.map((c) => [c.data.payout_id, c.verifies])).toEqual([[payoutId, true]]);
    const events = receiver.received.map((r) => r.event);
    expect(events.indexOf('payout.created')).toBeLessThan(events.indexOf('payout.completed'));
    const api = await new Api(`${baseUrl}/sandbox`, CREDS).login();
    const payout = await api.call('GET', `/v1/payouts/${payoutId}`);
    expect(payout.body).toMatchObject({
      status: 'COMPLETED',
      reference_number: completed[0].data.reference_number,
    });
  }, 90000);

  it('trigger --user-id builds on that user; an unknown event, no authorized bank or no sandbox is said plainly', async () => {
    const receiver = await receiverAnswering(200);
    const { baseUrl } = await sandboxCli(['--webhook-url', receiver.url]);
    const api = await new Api(`${baseUrl}/sandbox`, CREDS).login();
    const user = await api.call('POST', '/v1/users', { body: individual() });
    expect(user.status).toBe(201);

    const run = await runCli([
      'trigger',
      'user.liveness_completed',
      '--user-id',
      user.body.id,
      '--base-url',
      baseUrl,
    ]);
    expect(run.code).toBe(0);
    const liveness = verified(receiver, 'user.liveness_completed');
    expect(liveness.map((l) => [l.data.user_id, l.verifies])).toEqual([[user.body.id, true]]);
    // No second user was made for it: only the one created above.
    expect(verified(receiver, 'user.created').map((c) => c.data.user_id)).toEqual([user.body.id]);

    const unknown = await runCli(['trigger', 'payout.exploded', '--base-url', baseUrl]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no flow makes payout.exploded');
    const noBank = await runCli(['trigger', 'virtual_account.created', '--base-url', baseUrl]);
    expect(noBank.code).toBe(1);
    expect(noBank.stderr).toContain('the account authorizes no bank');
    expect(noBank.stderr).toContain('--authorized-banks');
    // Nothing listens there: both commands say where they looked, and exit 1.
    const nowhere = await closedPortUrl();
    const absent = await runCli(['trigger', 'user.created', '--base-url', nowhere]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(`ECONNREFUSED`);
    expect(absent.stderr).toContain(`(is the sandbox running at ${nowhere}?)`);
    const listenAbsent = await runCli(['listen', '--forward-to', receiver.url, '--base-url', nowhere]);
    expect(listenAbsent.code).toBe(1);
    expect(listenAbsent.stderr).toContain(`(is the sandbox running at ${nowhere}?)`);
  }, 90000);

  it('listen --forward-to relays each delivery byte-exact with its signature, prints the target status, and puts the webhook URL back', async () => {
    // The target answers 202: the sandbox's record shows the target's answer, relayed.
    const target = await receiverAnswering(202);
    const previous = 'http://127.0.0.1:9/app-was-here';
    const { baseUrl, control } = await sandboxCli(['--webhook-url', previous]);
    const listen = await spawnCli(
      ['listen', '--forward-to', target.url, '--base-url', baseUrl],
      /Relay listening on (http:\/\/\S+)/,
    );
    children.push(listen.child);
    expect(await control.webhookUrl()).toBe(listen.found);

    const run = await runCli(['trigger', 'user.created', '--base-url', baseUrl]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/user\.created\s+\S+\s+delivered, answered 202/);
    const [created] = verified(target, 'user.created');
    expect(created.verifies).toBe(true);
    expect(created.data).toMatchObject({ user_id: expect.any(String), metadata: expect.any(Object) });
    const [record] = (await control.deliveries()).filter((d) => d.event === 'user.created');
    // Byte-exact: the bytes and the signature the sandbox sent are what the target got.
    expect(created.raw).toBe(record.body);
    expect(created.signature).toBe(record.signature);
    expect(record).toMatchObject({ outcome: 'delivered', status: 202 });
    // One line per event: its type, its event_id and the target's answer.
    await outputMatching(listen, new RegExp(`user\\.created\\s+${record.eventId}  -> 202`));

    expect(await stop(listen.child, 'SIGINT')).toBe(0);
    expect(await control.webhookUrl()).toBe(previous);
    await outputMatching(listen, /webhook URL put back to http:\/\/127\.0\.0\.1:9\/app-was-here/);
  }, 90000);

  it('listen: a target that does not answer makes the delivery fail at the sandbox too (never retried, spec 6.1.4)', async () => {
    const { baseUrl, control } = await sandboxCli([]);
    const down = await closedPortUrl('/down');
    const listen = await spawnCli(
      ['listen', '--forward-to', down, '--base-url', baseUrl],
      /Relay listening on (http:\/\/\S+)/,
    );
    children.push(listen.child);
    const run = await runCli(['trigger', 'user.created', '--base-url', baseUrl]);
    expect(run.code).toBe(1);
    const [record] = (await control.deliveries()).filter((d) => d.event === 'user.created');
    expect(record).toMatchObject({ outcome: 'failed', status: null });
    await outputMatching(
      listen,
      /user\.created\s+\S+\s+-> not delivered to \S+\/down: fetch failed: connect ECONNREFUSED/,
    );
    expect(await stop(listen.child, 'SIGINT')).toBe(0);
    expect(await control.webhookUrl()).toBeNull();
  }, 90000);
});
