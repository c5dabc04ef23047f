/**
 * `partner-sandbox conformance --base-url URL [--allow-writes] [--json] [--webhook-listen HOST:PORT
 * --webhook-secret-env VAR [--webhook-previous-listen HOST:PORT]]`. Credentials come from the
 * environment variables the module's apps already use (PARTNER_API_KEY, PARTNER_CLIENT_ID,
 * PARTNER_PASSWORD, PARTNER_CLIENT_UUID; PARTNER_BASE_URL + PARTNER_ENV when --base-url is absent).
 * Exit codes: 0 conforms, 1 a probe diverged or could not run, 2 usage.
 */
import { parseArgs } from 'node:util';
import { runConformance } from './conformance.service';
import type { ConformanceOptions } from './probe.types';
import { renderReport, reportJson } from './report-render.util';
import { sandboxConformanceHooks } from './sandbox-hooks.client';
import { WEBHOOK_CLI_HELP, webhookOptionsFromCli } from './webhooks/webhook-cli.util';

export const CONFORMANCE_HELP = `partner-sandbox conformance: checks a partner API base URL against the documented behaviour

Usage: partner-sandbox conformance --base-url <url> [options]

  --base-url <url>        the API base, e.g. https://HOST/sandbox (default PARTNER_BASE_URL,
                          joined with /sandbox unless PARTNER_ENV=production, as the module does)
  --allow-writes          run the probes that create data (only on a sandbox base URL)
  --json                  print the report as JSON
  --environment <sandbox|production>   default: from the URL (a base ending in /sandbox is a sandbox)
  --verified-user <id>    a user the partner has VERIFIED (virtual-account and payout probes)
  --sandbox-control <url> THIS package's sandbox only: its control API plays the partner's staff and
                          clock (verifies users, opens and funds accounts, raises RFIs, expires tokens,
                          makes another account's user, points webhooks at --webhook-listen)
  --only <prefix,...>     only the probes whose id starts with one of these (e.g. users.,auth.)
  --skip <prefix,...>     not those (e.g. auth.rejected-pair, which sends one wrong password)
  --settle-ms <n>         wait for a new user to settle (default 15000)
  --foreign-user <id>     a user of another account of yours (the cross-account probe)
${WEBHOOK_CLI_HELP}
  -h, --help

Credentials: PARTNER_API_KEY, PARTNER_CLIENT_ID, PARTNER_PASSWORD, PARTNER_CLIENT_UUID (optional).
Exit code: 0 conforms, 1 a probe diverged or could not run, 2 usage or missing credentials.`;

export class ConformanceUsageError extends Error {}

const list = (raw: string | undefined) =>
  raw
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Options for runConformance from argv and the environment; `help` for --help. */
export function conformanceOptionsFromCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
): (ConformanceOptions & { json: boolean }) | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'base-url': { type: 'string' },
        'allow-writes': { type: 'boolean' },
        json: { type: 'boolean' },
        environment: { type: 'string' },
        'verified-user': { type: 'string' },
        'sandbox-control': { type: 'string' },
        only: { type: 'string' },
        skip: { type: 'string' },
        'settle-ms': { type: 'string' },
        'foreign-user': { type: 'string' },
        'webhook-listen': { type: 'string' },
        'webhook-secret-env': { type: 'string' },
        'webhook-timeout-ms': { type: 'string' },
        'webhook-previous-listen': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new ConformanceUsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const envBase = env.PARTNER_BASE_URL
    ? `${env.PARTNER_BASE_URL.replace(/\/+$/, '')}${env.PARTNER_ENV === 'production' ? '' : '/sandbox'}`
    : undefined;
  const baseUrl = values['base-url'] ?? envBase;
  if (!baseUrl) throw new ConformanceUsageError('--base-url is required (or set PARTNER_BASE_URL)');
  try {
    new URL(baseUrl);
  } catch {
    throw new ConformanceUsageError(`--base-url must be an absolute URL, got "${baseUrl}"`);
  }
  const environment = values.environment;
  if (environment !== undefined && environment !== 'sandbox' && environment !== 'production') {
    throw new ConformanceUsageError(`--environment must be sandbox or production, got "${environment}"`);
  }
  const missing = ['PARTNER_API_KEY', 'PARTNER_CLIENT_ID', 'PARTNER_PASSWORD'].filter((v) => !env[v]);
  if (missing.length) throw new ConformanceUsageError(`missing credentials: set ${missing.join(', ')}`);
  const settle = values['settle-ms'];
  if (settle !== undefined && !/^\d+$/.test(settle)) {
    throw new ConformanceUsageError(`--settle-ms must be a non-negative integer, got "${settle}"`);
  }
  const webhooks = webhookOptionsFromCli(
    {
      listen: values['webhook-listen'],
      secretEnv: values['webhook-secret-env'],
      timeoutMs: values['webhook-timeout-ms'],
      previousListen: values['webhook-previous-listen'],
    },
    env,
    (message) => new ConformanceUsageError(message),
  );
  return {
    baseUrl,
    credentials: {
      apiKey: env.PARTNER_API_KEY as string,
      clientId: env.PARTNER_CLIENT_ID as string,
      password: env.PARTNER_PASSWORD as string,
      clientUuid: env.PARTNER_CLIENT_UUID || undefined,
    },
    allowWrites: values['allow-writes'] === true,
    environment,
    verifiedUserId: values['verified-user'],
    foreignUserId: values['foreign-user'],
    webhooks,
    hooks: values['sandbox-control'] ? sandboxConformanceHooks(values['sandbox-control']) : undefined,
    only: list(values.only),
    skip: list(values.skip),
    settleMs: settle === undefined ? undefined : Number(settle),
    json: values.json === true,
  };
}

/** Runs the CLI; answers the exit code. Output goes to `out`, usage errors to `err`. */
export async function runConformanceCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: { out: (s: string) => void; err: (s: string) => void },
): Promise<number> {
  let options: ReturnType<typeof conformanceOptionsFromCli>;
  try {
    options = conformanceOptionsFromCli(argv, env);
  } catch (error) {
    if (!(error instanceof ConformanceUsageError)) throw error;
    io.err(`partner-sandbox conformance: ${error.message}\n\n${CONFORMANCE_HELP}\n`);
    return 2;
  }
  if (options === 'help') {
    io.out(`${CONFORMANCE_HELP}\n`);
    return 0;
  }
  let report;
  try {
    report = await runConformance(options);
  } catch (error) {
    // Only a bad --only or a receiver that cannot listen reaches here: a divergence or a network
    // failure is in the report.
    io.err(`partner-sandbox conformance: ${(error as Error).message}\n`);
    return 2;
  }
  io.out(options.json ? reportJson(report) : renderReport(report, { width: 180 }));
  return report.ok ? 0 : 1;
}
