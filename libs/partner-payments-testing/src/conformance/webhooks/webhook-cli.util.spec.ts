import { ConformanceUsageError, conformanceOptionsFromCli } from '../conformance-cli.util';

const env = { PARTNER_API_KEY: 'k', PARTNER_CLIENT_ID: 'c', PARTNER_PASSWORD: 'p', HOOK_SECRET: 'whsec_x1' };
const parse = (...args: string[]) =>
  conformanceOptionsFromCli(['--base-url', 'http://127.0.0.1:4010/sandbox', ...args], env);
const usage = (...args: string[]) => {
  try {
    parse(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(ConformanceUsageError);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
};

describe('conformance CLI: webhook receiver options', () => {
  it('reads the secret from the named variable, never from the command line', () => {
    const options = parse('--webhook-listen', '127.0.0.1:4020', '--webhook-secret-env', 'HOOK_SECRET');
    expect(options !== 'help' && options.webhooks).toEqual({
      host: '127.0.0.1',
      port: 4020,
      secret: 'whsec_x1',
      timeoutMs: undefined,
    });
    const v6 = parse(
      '--webhook-listen',
      '[::1]:0',
      '--webhook-secret-env',
      'HOOK_SECRET',
      '--webhook-timeout-ms',
      '5000',
    );
    expect(v6 !== 'help' && v6.webhooks).toMatchObject({ host: '::1', port: 0, timeoutMs: 5000 });
    const none = parse();
    expect(none !== 'help' && none.webhooks).toBeUndefined();
  });

  it('refuses what would leave the receiver unusable, naming the option', () => {
    expect(usage('--webhook-listen', '127.0.0.1:4020')).toBe(
      '--webhook-listen needs --webhook-secret-env <VAR>',
    );
    expect(usage('--webhook-listen', '127.0.0.1:4020', '--webhook-secret-env', 'UNSET_VAR')).toBe(
      '--webhook-secret-env: UNSET_VAR is not set or empty',
    );
    // A secret pasted where the variable's name goes is refused without echoing it.
    const pasted = usage('--webhook-listen', '127.0.0.1:4020', '--webhook-secret-env', 'whsec-abc/def');
    expect(pasted).toBe('--webhook-secret-env takes a variable name, got "whs…"');
    expect(usage('--webhook-listen', '4020', '--webhook-secret-env', 'HOOK_SECRET')).toMatch(
      /^--webhook-listen must be <host:port>/,
    );
    expect(usage('--webhook-listen', 'h:70000', '--webhook-secret-env', 'HOOK_SECRET')).toMatch(
      /^--webhook-listen must be <host:port>/,
    );
    expect(
      usage('--webhook-listen', 'h:1', '--webhook-secret-env', 'HOOK_SECRET', '--webhook-timeout-ms', '0'),
    ).toBe('--webhook-timeout-ms must be a positive integer, got "0"');
    expect(usage('--webhook-secret-env', 'HOOK_SECRET')).toBe(
      '--webhook-secret-env and --webhook-timeout-ms need --webhook-listen',
    );
  });

  it('takes --webhook-previous-listen for the registration probe, checked like --webhook-listen', () => {
    const hook = ['--webhook-listen', '127.0.0.1:4020', '--webhook-secret-env', 'HOOK_SECRET'];
    const options = parse(...hook, '--webhook-previous-listen', '[::1]:4021');
    expect(options !== 'help' && options.webhooks?.previous).toEqual({ host: '::1', port: 4021 });
    const without = parse(...hook);
    expect(without !== 'help' && without.webhooks).not.toHaveProperty('previous');
    expect(usage(...hook, '--webhook-previous-listen', '4021')).toMatch(
      /^--webhook-previous-listen must be <host:port>/,
    );
    expect(usage(...hook, '--webhook-previous-listen', '127.0.0.1:4020')).toBe(
      '--webhook-previous-listen must differ from --webhook-listen',
    );
    expect(usage('--webhook-previous-listen', '127.0.0.1:4021')).toBe(
      '--webhook-previous-listen needs --webhook-listen',
    );
  });

  it('takes --foreign-user for the cross-account probe', () => {
    const options = parse('--foreign-user', '0b5f6d1e-1c1d-4c8e-9a55-111111111111');
    expect(options !== 'help' && options.foreignUserId).toBe('0b5f6d1e-1c1d-4c8e-9a55-111111111111');
  });
});
