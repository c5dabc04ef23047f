/** What the subcommands share: where the sandbox is, and where their output goes. */
import { printableUrl } from '../server/url-mask.util';

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** A wrong flag or value: printed with the subcommand's help, exit code 2. */
export class CliUsageError extends Error {}

/**
 * The sandbox's URL as an app calls it: `--base-url`, else the host and port the sandbox itself
 * reads (PARTNER_SANDBOX_HOST, PARTNER_SANDBOX_PORT), else its defaults (127.0.0.1:4010). A URL
 * ending in /sandbox is kept: the partner routes are called under it, the control API at the root.
 */
export function sandboxBaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const url =
    flag ?? `http://${env.PARTNER_SANDBOX_HOST || '127.0.0.1'}:${env.PARTNER_SANDBOX_PORT || '4010'}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliUsageError(`--base-url must be an absolute http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CliUsageError(`--base-url must be an absolute http(s) URL, got "${url}"`);
  return url.replace(/\/+$/, '');
}

/**
 * The message of an error and of its cause (fetch's "fetch failed" says why only in its cause);
 * with `baseUrl`, a connection that failed also asks whether the sandbox runs there.
 */
export function errorText(error: unknown, baseUrl?: string): string {
  if (!(error instanceof Error)) return String(error);
  const text = error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  return baseUrl && error.message === 'fetch failed'
    ? `${text} (is the sandbox running at ${printableUrl(baseUrl)}?)`
    : text;
}

/**
 * A subcommand's options, or its exit code when there is nothing to run: 0 after printing its help
 * (--help), 2 after a usage error (printed with the help).
 */
export function optionsOrExitCode<T extends object>(
  command: string,
  help: string,
  io: CliIo,
  parse: () => T | 'help',
): T | number {
  try {
    const options = parse();
    if (options !== 'help') return options;
    io.out(`${help}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.err(`partner-sandbox ${command}: ${error.message}\n\n${help}\n`);
    return 2;
  }
}

/**
 * `work`, or a rejection naming `what` after `ms`: the control client waits as long as the sandbox
 * takes, and a sandbox that stops answering must not hang the command.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
