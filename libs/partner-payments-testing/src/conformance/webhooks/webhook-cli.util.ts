/**
 * The conformance command's webhook options: `--webhook-listen <host:port>`, the secret read from
 * the environment variable `--webhook-secret-env` names (never taken on the command line, where the
 * shell history and the process list would show it), `--webhook-timeout-ms`, and
 * `--webhook-previous-listen` (the receiver of the URL registered before, evidence §11 N23).
 */
import type { ConformanceWebhookOptions } from './webhook.types';

export const WEBHOOK_CLI_HELP = `  --webhook-listen <host:port>  start a receiver for the webhook probes there; register a URL that
                          reaches it at the partner first (registration is out of band, spec 6.1.1;
                          with --sandbox-control the sandbox is pointed at it). Without it those
                          probes are skipped
  --webhook-secret-env <VAR>    the environment variable holding the webhook secret (required with
                          --webhook-listen; the secret itself is never an argument)
  --webhook-timeout-ms <n>      wait for a delivery (default 120000: the partner's came ~37 s late)
  --webhook-previous-listen <host:port>  a second receiver, where the URL you registered BEFORE
                          re-registering the --webhook-listen one leads: the last registration
                          must win, nothing may arrive there (webhooks.registration.last-wins;
                          skipped without it, unless --sandbox-control registers both)`;

/** `host:port` or `[v6]:port`; throws `fail(message)` naming the option. */
function listenAddress(
  raw: string,
  fail: (m: string) => Error,
  option = '--webhook-listen',
): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(raw);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    throw fail(`${option} must be <host:port> (e.g. 127.0.0.1:4020), got "${raw}"`);
  }
  return { host: match[1] ?? match[2], port };
}

/** The receiver options from the parsed values, or undefined without --webhook-listen. */
export function webhookOptionsFromCli(
  values: { listen?: string; secretEnv?: string; timeoutMs?: string; previousListen?: string },
  env: NodeJS.ProcessEnv,
  fail: (message: string) => Error,
): ConformanceWebhookOptions | undefined {
  if (values.listen === undefined) {
    if (values.secretEnv !== undefined || values.timeoutMs !== undefined)
      throw fail('--webhook-secret-env and --webhook-timeout-ms need --webhook-listen');
    if (values.previousListen !== undefined) throw fail('--webhook-previous-listen needs --webhook-listen');
    return undefined;
  }
  const { host, port } = listenAddress(values.listen, fail);
  const previous =
    values.previousListen === undefined
      ? undefined
      : listenAddress(values.previousListen, fail, '--webhook-previous-listen');
  if (previous && previous.host === host && previous.port === port && port !== 0)
    throw fail('--webhook-previous-listen must differ from --webhook-listen');
  if (!values.secretEnv) throw fail('--webhook-listen needs --webhook-secret-env <VAR>');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(values.secretEnv))
    throw fail(`--webhook-secret-env takes a variable name, got "${values.secretEnv.slice(0, 3)}…"`);
  const secret = env[values.secretEnv];
  if (!secret) throw fail(`--webhook-secret-env: ${values.secretEnv} is not set or empty`);
  if (values.timeoutMs !== undefined && !/^[1-9]\d*$/.test(values.timeoutMs))
    throw fail(`--webhook-timeout-ms must be a positive integer, got "${values.timeoutMs}"`);
  return {
    host,
    port,
    secret,
    timeoutMs: values.timeoutMs === undefined ? undefined : Number(values.timeoutMs),
    ...(previous ? { previous } : {}),
  };
}
