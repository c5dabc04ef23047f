#!/usr/bin/env node
/**
 * Runs the partner sandbox standalone: `npm run sandbox -- --port 4010` or `partner-sandbox --help`.
 * Every flag has an environment variable; flags win. Secrets are never printed.
 */
import { parseArgs } from 'node:util';
import { startPartnerSandbox } from './server/sandbox-server.service';
import type { PartnerSandboxOptions } from './server/sandbox.types';
import { printableUrl } from './server/url-mask.util';
import { runConformanceCli } from './conformance/conformance-cli.util';
import { startBanner } from './cli/start-banner.util';
import { runTriggerCli } from './cli/trigger-cli.util';
import { runListenCli } from './cli/listen-cli.util';

export { printableUrl };

const HELP = `partner-sandbox: a contract-faithful simulator of the partner payments API

Usage: partner-sandbox [options]        (npm run sandbox -- [options])
       partner-sandbox trigger <event> [--user-id <id>] [--base-url <url>]     (see trigger --help)
       partner-sandbox listen --forward-to <url> [--base-url <url>]           (see listen --help)
       partner-sandbox conformance --base-url <url> [--allow-writes] [--json]   (see conformance --help)

  --port <n>                 PARTNER_SANDBOX_PORT             default 4010 (0 = random)
  --host <addr>              PARTNER_SANDBOX_HOST             default 127.0.0.1
  --bases <sandbox|root|both> PARTNER_SANDBOX_BASES           default sandbox (/sandbox; both: / too, not the partner)
  --api-key <s>              PARTNER_SANDBOX_API_KEY          default sandbox_test_api_key
  --client-id <s>            PARTNER_SANDBOX_CLIENT_ID        default sandbox_test_client
  --password <s>             PARTNER_SANDBOX_PASSWORD         default sandbox_test_password
  --client-uuid <uuid>       PARTNER_SANDBOX_CLIENT_UUID      default 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b
  --webhook-url <url>        PARTNER_SANDBOX_WEBHOOK_URL      default none (deliveries only logged)
  --webhook-secret <s>       PARTNER_SANDBOX_WEBHOOK_SECRET   default whsec_sandbox_test_secret
  --token-ttl <seconds>      PARTNER_SANDBOX_TOKEN_TTL        default 3600 (try 86400 or 5)
  --authorized-banks <a,b,...>  (or --banks)
                             PARTNER_SANDBOX_AUTHORIZED_BANKS default none, as at the partner (e.g. bank_a,bank_d)
  --pinned-version <date>    PARTNER_SANDBOX_PINNED_VERSION   default none (older baseline)
  --no-rate-limit            PARTNER_SANDBOX_RATE_LIMIT=0     default on: 20 requests/s, burst 50, per account
  --auto-payouts             PARTNER_SANDBOX_AUTO_PAYOUTS=1   payouts follow a script chosen by amount
  --verification-delay <ms>  PARTNER_SANDBOX_VERIFICATION_DELAY_MS  default 5000 (each automatic user step; 0: at once)
  --user-verification <manual|auto-approve|ein-table>
                             PARTNER_SANDBOX_USER_VERIFICATION  default manual (users stop in REVIEW)
  --quiet                    PARTNER_SANDBOX_QUIET=1
  -h, --help

Partner routes at http://HOST:PORT/ and http://HOST:PORT/sandbox; control API at /__control.`;

export function optionsFromCli(argv: string[], env: NodeJS.ProcessEnv): PartnerSandboxOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      bases: { type: 'string' },
      'api-key': { type: 'string' },
      'client-id': { type: 'string' },
      password: { type: 'string' },
      'client-uuid': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'token-ttl': { type: 'string' },
      banks: { type: 'string' },
      'authorized-banks': { type: 'string' },
      'pinned-version': { type: 'string' },
      'rate-limit': { type: 'boolean' },
      'no-rate-limit': { type: 'boolean' },
      'auto-payouts': { type: 'boolean' },
      'verification-delay': { type: 'string' },
      'user-verification': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const num = (flag: string, raw: string | undefined, fallback?: number): number | undefined => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`${flag} must be a non-negative integer, got "${raw}"`);
    return n;
  };
  if (values.banks !== undefined && values['authorized-banks'] !== undefined)
    throw new Error('--banks and --authorized-banks are the same flag: give one');
  // None unless given: the partner's default is [] (spec 2.4).
  const banks = values['authorized-banks'] ?? values.banks ?? env.PARTNER_SANDBOX_AUTHORIZED_BANKS;
  const bases = values.bases ?? env.PARTNER_SANDBOX_BASES;
  if (bases !== undefined && bases !== 'both' && bases !== 'sandbox' && bases !== 'root')
    throw new Error(`--bases must be both, sandbox or root, got "${bases}"`);
  const userVerification = values['user-verification'] ?? env.PARTNER_SANDBOX_USER_VERIFICATION;
  if (
    userVerification !== undefined &&
    userVerification !== 'manual' &&
    userVerification !== 'auto-approve' &&
    userVerification !== 'ein-table'
  )
    throw new Error(
      `--user-verification must be manual, auto-approve or ein-table, got "${userVerification}"`,
    );
  return {
    port: num('--port', values.port ?? env.PARTNER_SANDBOX_PORT, 4010),
    host: values.host ?? env.PARTNER_SANDBOX_HOST,
    bases: bases || undefined,
    credentials: {
      apiKey: values['api-key'] ?? env.PARTNER_SANDBOX_API_KEY,
      clientId: values['client-id'] ?? env.PARTNER_SANDBOX_CLIENT_ID,
      password: values.password ?? env.PARTNER_SANDBOX_PASSWORD,
    },
    clientUuid: values['client-uuid'] ?? env.PARTNER_SANDBOX_CLIENT_UUID,
    webhookUrl: values['webhook-url'] ?? env.PARTNER_SANDBOX_WEBHOOK_URL,
    webhookSecret: values['webhook-secret'] ?? env.PARTNER_SANDBOX_WEBHOOK_SECRET,
    tokenTtlSeconds: num('--token-ttl', values['token-ttl'] ?? env.PARTNER_SANDBOX_TOKEN_TTL),
    authorizedBanks:
      banks === undefined
        ? undefined
        : banks
            .split(',')
            .map((b) => b.trim())
            .filter(Boolean),
    pinnedVersion: values['pinned-version'] ?? env.PARTNER_SANDBOX_PINNED_VERSION,
    // On by default, as at the partner; `--rate-limit` (the old opt-in) is still accepted.
    rateLimit: values['no-rate-limit']
      ? false
      : (values['rate-limit'] ?? env.PARTNER_SANDBOX_RATE_LIMIT !== '0'),
    autoPayouts: values['auto-payouts'] ?? env.PARTNER_SANDBOX_AUTO_PAYOUTS === '1',
    verificationDelayMs: num(
      '--verification-delay',
      values['verification-delay'] ?? env.PARTNER_SANDBOX_VERIFICATION_DELAY_MS,
    ),
    userVerification: userVerification || undefined,
    quiet: values.quiet ?? env.PARTNER_SANDBOX_QUIET === '1',
  };
}

const SUBCOMMANDS = { conformance: runConformanceCli, trigger: runTriggerCli, listen: runListenCli };

async function main(): Promise<void> {
  const subcommand = SUBCOMMANDS[process.argv[2] as keyof typeof SUBCOMMANDS];
  if (subcommand) {
    process.exitCode = await subcommand(process.argv.slice(3), process.env, {
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
    });
    // A request the command gave up on (a sandbox that stopped answering) would keep node alive.
    setTimeout(() => process.exit(), 1000).unref();
    return;
  }
  let options: PartnerSandboxOptions | 'help';
  try {
    options = optionsFromCli(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`partner-sandbox: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  // Warnings (a delivery that failed, a reused Idempotency-Key) go to stderr unless --quiet; they
  // never carry secrets (webhook URLs are masked by the sender).
  const sandbox = await startPartnerSandbox({
    ...options,
    quiet: options.quiet === true,
    logger: {
      log: () => undefined, // the banner below says where it listens
      warn: (m) => process.stderr.write(`[partner-sandbox] ${m}\n`),
    },
  });
  for (const line of startBanner(sandbox, options)) process.stdout.write(`${line}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
  // `npm run sandbox` runs `sh -c "npm run build:libs && node ..."`: a SIGTERM to npm stops npm and
  // the shell but never reaches this process, which would keep the port. A changed parent pid means
  // the parent is gone (re-parented): stop as on a signal.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500).unref();
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(
      `partner-sandbox failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
