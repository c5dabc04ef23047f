/**
 * `partner-sandbox listen --forward-to <url> [--base-url URL]`: for a sandbox started elsewhere,
 * registers a local relay as the account's webhook URL and forwards each delivery to `url`
 * byte-exact, with its signature header (spec 6.1.3: the HMAC covers the exact bytes, so a
 * re-serialised body would not verify). The target's answer goes back to the sandbox, so its
 * delivery records hold the target's status; a target that does not answer makes the delivery fail
 * there too (spec 6.1.4: never retried). On exit the webhook URL it replaced is put back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { PartnerSandboxControlClient } from '../control/control.client';
import { printableUrl } from '../server/url-mask.util';
import { SIGNATURE_HEADER } from '../webhooks/webhook-signing.util';
import {
  CliUsageError,
  errorText,
  optionsOrExitCode,
  sandboxBaseUrl,
  withDeadline,
  type CliIo,
} from './cli-io.util';
import { relayDelivery } from './listen-relay.util';

export const LISTEN_HELP = `partner-sandbox listen: forwards a running sandbox's webhooks to a URL

Usage: partner-sandbox listen --forward-to <url> [options]

  --forward-to <url>     where each delivery goes, e.g. http://127.0.0.1:3000/webhooks/partner
  --base-url <url>       the sandbox (default http://PARTNER_SANDBOX_HOST:PARTNER_SANDBOX_PORT,
                         i.e. http://127.0.0.1:4010)
  --client-uuid <uuid>   the account whose webhooks to take (default PARTNER_SANDBOX_CLIENT_UUID,
                         else the sandbox's primary account)
  --host <addr>          where the relay listens, as the sandbox reaches it (default 127.0.0.1)
  --port <n>             its port (default 0: any free one)
  --timeout-ms <n>       how long the target may take to answer (default 10000)
  -h, --help

It becomes the account's webhook URL until stopped (Ctrl-C), then puts the previous one back.
Each delivery is forwarded byte-exact with ${SIGNATURE_HEADER}; one line per event with the
target's answer.`;

/** How long a control call may take before the command gives up on the sandbox. */
const CONTROL_MS = 15_000;

export interface ListenCliOptions {
  forwardTo: string;
  baseUrl: string;
  /** Undefined: the sandbox's primary account (the one its flags configure). */
  clientUuid?: string;
  host: string;
  port: number;
  timeoutMs: number;
}

const nonNegative = (flag: string, raw: string) => {
  if (!/^\d+$/.test(raw)) throw new CliUsageError(`${flag} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
};

export function listenOptionsFromCli(argv: string[], env: NodeJS.ProcessEnv): ListenCliOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'forward-to': { type: 'string' },
        'base-url': { type: 'string' },
        'client-uuid': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const forwardTo = values['forward-to'];
  if (!forwardTo)
    throw new CliUsageError('--forward-to is required, e.g. --forward-to http://127.0.0.1:3000/webhooks');
  let target: URL;
  try {
    target = new URL(forwardTo);
  } catch {
    throw new CliUsageError('--forward-to must be an absolute http(s) URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new CliUsageError('--forward-to must be an absolute http(s) URL');
  const timeoutMs = nonNegative('--timeout-ms', values['timeout-ms'] ?? '10000');
  if (timeoutMs < 1) throw new CliUsageError('--timeout-ms must be at least 1');
  return {
    forwardTo,
    baseUrl: sandboxBaseUrl(values['base-url'], env),
    clientUuid: values['client-uuid'] ?? (env.PARTNER_SANDBOX_CLIENT_UUID || undefined),
    host: values.host ?? '127.0.0.1',
    port: nonNegative('--port', values.port ?? '0'),
    timeoutMs,
  };
}

export interface SandboxListener {
  /** The relay's URL, registered as the account's webhook URL. */
  url: string;
  /** Stops relaying and puts the previous webhook URL back (unless someone replaced ours since). */
  close(): Promise<void>;
}

/** Starts the relay and registers it with the sandbox. */
export async function startSandboxListener(options: ListenCliOptions, io: CliIo): Promise<SandboxListener> {
  const control = new PartnerSandboxControlClient(options.baseUrl);
  // Asked first: a sandbox that is not there fails here, before anything listens.
  const previous = await withDeadline(control.webhookUrl(options.clientUuid), CONTROL_MS, 'the sandbox');
  const server = createServer((req: IncomingMessage, res: ServerResponse) =>
    relayDelivery(req, res, options, (line) => io.out(`${line}\n`)),
  );
  server.listen(options.port, options.host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => Promise.reject(error as Error)),
  ]);
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}/`;
  try {
    await withDeadline(control.setWebhookUrl(url, options.clientUuid), CONTROL_MS, 'the sandbox');
  } catch (error) {
    server.close();
    throw error;
  }
  io.out(
    `Forwarding the webhooks of ${options.clientUuid ? `account ${options.clientUuid}` : 'the primary account'} at ${printableUrl(options.baseUrl)} to ${printableUrl(options.forwardTo)}\n` +
      `Relay listening on ${url} (the account's webhook URL until stopped; Ctrl-C stops)\n`,
  );
  return {
    url,
    async close() {
      try {
        const putBack = async () => {
          if ((await control.webhookUrl(options.clientUuid)) === url)
            await control.setWebhookUrl(previous, options.clientUuid);
        };
        await withDeadline(putBack(), CONTROL_MS, 'the sandbox');
        io.out(`Stopped; webhook URL put back to ${previous ? printableUrl(previous) : 'none'}\n`);
      } catch (error) {
        io.err(`partner-sandbox listen: could not put the webhook URL back: ${errorText(error)}\n`);
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs the subcommand until SIGINT/SIGTERM/SIGHUP; answers the exit code. */
export async function runListenCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const options = optionsOrExitCode('listen', LISTEN_HELP, io, () => listenOptionsFromCli(argv, env));
  if (typeof options === 'number') return options;
  let listener: SandboxListener;
  try {
    listener = await startSandboxListener(options, io);
  } catch (error) {
    io.err(`partner-sandbox listen: ${errorText(error, options.baseUrl)}\n`);
    return 1;
  }
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
  });
  await listener.close();
  return 0;
}
