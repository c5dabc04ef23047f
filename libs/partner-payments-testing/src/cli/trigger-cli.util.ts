/**
 * `partner-sandbox trigger <event> [--user-id ID] [--base-url URL]`: makes a running sandbox send
 * one event, signed, to its webhook URL, from a real flow (trigger-flows.service.ts), and prints
 * every delivery the flow caused with the receiver's answer.
 */
import { parseArgs } from 'node:util';
import { PartnerSandboxControlClient } from '../control/control.client';
import type { DeliveryRecord } from '../control/control.types';
import { SANDBOX_DEFAULTS } from '../server/sandbox-server.service';
import {
  CliUsageError,
  errorText,
  optionsOrExitCode,
  sandboxBaseUrl,
  withDeadline,
  type CliIo,
} from './cli-io.util';
import { SandboxApiClient } from './sandbox-api.client';
import { TRIGGERS, TriggerFlow } from './trigger-flows.service';

/** Names joined with commas, in lines of at most 96 characters. */
const wrap = (names: string[]) =>
  names.reduce((text, name) => {
    const line = text.slice(text.lastIndexOf('\n') + 1);
    return !text ? name : `${text},${line.length + name.length + 2 > 96 ? '\n' : ' '}${name}`;
  }, '');

export const TRIGGER_HELP = `partner-sandbox trigger: makes a running sandbox send one event to its webhook URL

Usage: partner-sandbox trigger <event> [options]

  --user-id <id>         build on this user instead of a new one
  --base-url <url>       the sandbox (default http://PARTNER_SANDBOX_HOST:PARTNER_SANDBOX_PORT,
                         i.e. http://127.0.0.1:4010); its partner routes are reached under /sandbox
  --api-key, --client-id, --password, --client-uuid
                         the account the sandbox was started with (default its PARTNER_SANDBOX_*
                         variables, else the sandbox's defaults); its data is made through the API
  --timeout-ms <n>       how long to wait for the delivery (default 30000)
  -h, --help

Events: ${wrap(Object.keys(TRIGGERS))}.
The resources are real (a payout's events come from a payout made for the purpose); every
delivery the flow caused is printed with the receiver's answer. Exit code: 0 sent, 1 not, 2 usage.`;

export interface TriggerCliOptions {
  event: string;
  baseUrl: string;
  userId?: string;
  credentials: { apiKey: string; clientId: string; password: string };
  clientUuid: string;
  timeoutMs: number;
}

export function triggerOptionsFromCli(argv: string[], env: NodeJS.ProcessEnv): TriggerCliOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'user-id': { type: 'string' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'client-id': { type: 'string' },
        password: { type: 'string' },
        'client-uuid': { type: 'string' },
        'timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1)
    throw new CliUsageError('give exactly one event, e.g. trigger payout.completed');
  const event = positionals[0];
  if (!TRIGGERS[event])
    throw new CliUsageError(
      `no flow makes ${event}; known: ${Object.keys(TRIGGERS).join(', ')} (anything else: POST /__control/emitEvent)`,
    );
  const timeout = values['timeout-ms'] ?? '30000';
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1)
    throw new CliUsageError(`--timeout-ms must be a positive integer, got "${timeout}"`);
  return {
    event,
    baseUrl: sandboxBaseUrl(values['base-url'], env),
    userId: values['user-id'],
    credentials: {
      apiKey: values['api-key'] ?? env.PARTNER_SANDBOX_API_KEY ?? SANDBOX_DEFAULTS.apiKey,
      clientId: values['client-id'] ?? env.PARTNER_SANDBOX_CLIENT_ID ?? SANDBOX_DEFAULTS.clientId,
      password: values.password ?? env.PARTNER_SANDBOX_PASSWORD ?? SANDBOX_DEFAULTS.password,
    },
    clientUuid: values['client-uuid'] ?? env.PARTNER_SANDBOX_CLIENT_UUID ?? SANDBOX_DEFAULTS.clientUuid,
    timeoutMs: Number(timeout),
  };
}

const done = (d: DeliveryRecord) => d.outcome !== 'queued' && d.outcome !== 'held';

function deliveryLine(d: DeliveryRecord): string {
  const answer =
    d.outcome === 'delivered'
      ? `delivered, answered ${d.status}`
      : d.outcome === 'failed'
        ? `not delivered: ${d.error ?? 'no answer'}`
        : d.outcome === 'no_url'
          ? 'not sent: no webhook URL'
          : d.outcome;
  return `  ${d.event.padEnd(44)} ${d.eventId ?? '(no event_id)'}  ${answer}`;
}

/** The flow, the wait for its delivery, and the report; answers the exit code. */
async function trigger(options: TriggerCliOptions, io: CliIo): Promise<number> {
  const control = new PartnerSandboxControlClient(options.baseUrl);
  const account = options.clientUuid.toLowerCase();
  const mine = (d: DeliveryRecord) => d.clientUuid === account;
  const before = await control.deliveries();
  const seen = before.reduce((max, d) => Math.max(max, d.seq), 0);
  // waitForDeliveries counts every account's finished deliveries of the event, old ones too.
  const earlier = before.filter((d) => d.event === options.event && done(d)).length;
  const api = new SandboxApiClient(options.baseUrl, options.credentials);
  const flow = new TriggerFlow(api, control, { userId: options.userId, clientUuid: options.clientUuid });
  const subject = await TRIGGERS[options.event](flow);
  await control.waitForDeliveries({
    event: options.event,
    count: earlier + 1,
    timeoutMs: options.timeoutMs,
  });
  await control.flushWebhooks();
  const sent = (await control.deliveries()).filter((d) => mine(d) && d.seq > seen);
  io.out(`partner-sandbox trigger ${options.event}: ${subject}\n`);
  for (const d of sent) io.out(`${deliveryLine(d)}\n`);
  const target = sent.filter((d) => d.event === options.event);
  if (target.some((d) => d.outcome === 'no_url'))
    io.out(
      'The sandbox has no webhook URL, so nothing was sent: set one (--webhook-url, POST /__control/setWebhookUrl) or run `partner-sandbox listen --forward-to URL`.\n',
    );
  return target.length > 0 && target.every((d) => d.outcome !== 'failed') ? 0 : 1;
}

/** Runs the subcommand; answers the exit code. */
export async function runTriggerCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const options = optionsOrExitCode('trigger', TRIGGER_HELP, io, () => triggerOptionsFromCli(argv, env));
  if (typeof options === 'number') return options;
  try {
    // The flow's calls and the wait for the delivery, bounded as a whole (withDeadline).
    return await withDeadline(trigger(options, io), options.timeoutMs + 60_000, 'the sandbox');
  } catch (error) {
    io.err(`partner-sandbox trigger ${options.event}: ${errorText(error, options.baseUrl)}\n`);
    return 1;
  }
}
