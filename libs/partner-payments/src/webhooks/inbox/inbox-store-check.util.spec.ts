import { PartnerConfigurationError } from '../../errors/partner-api.errors';
import { resolvePartnerOptions } from '../../options-resolver.util';
import type { PartnerPaymentsModuleOptions } from '../../partner-payments.options';
import { PartnerInMemoryInboxStore } from './inbox-memory.store';
import { checkInboxStore } from './inbox-store-check.util';

const valid: PartnerPaymentsModuleOptions = {
  baseUrl: 'https://api.partner.example',
  apiKey: 'k',
  clientId: 'c',
  password: 'p',
  webhooks: { secrets: ['s'] },
};

/** A store with the contract's three methods, as a plain object. */
const plainStore = () => ({
  record: async () => 'new' as const,
  process: async () => ({ outcome: 'skipped' as const }),
  drain: async () => ({ processed: 0, failed: 0, skipped: 0, batches: 0 }),
});

/** The error resolvePartnerOptions (what the module runs at boot) throws for these options. */
function bootFailure(o: Record<string, unknown>): PartnerConfigurationError {
  try {
    resolvePartnerOptions({ ...valid, ...o } as unknown as PartnerPaymentsModuleOptions);
  } catch (e) {
    if (e instanceof PartnerConfigurationError) return e;
    throw e;
  }
  throw new Error('expected a PartnerConfigurationError');
}

const REQUIRED = 'must be an object with record(), process(), drain() functions';

describe('options.inboxStore checked at boot', () => {
  it('accepts no store (the module then uses its in-memory one), an instance, and a plain object', () => {
    expect(checkInboxStore(undefined)).toBeNull();
    expect(checkInboxStore(null)).toBeNull();
    const instance = new PartnerInMemoryInboxStore();
    expect(checkInboxStore(instance)).toBe(instance);
    const plain = plainStore();
    expect(checkInboxStore(plain)).toBe(plain);
    expect(resolvePartnerOptions({ ...valid, inboxStore: instance }).webhookConfig.inboxStore).toBe(instance);
    expect(resolvePartnerOptions(valid).webhookConfig.inboxStore).toBeNull();
  });

  it.each<[string, () => unknown, string]>([
    ['an empty object', () => ({}), '(got an object without record(), process(), drain())'],
    [
      'an object missing one method',
      () => ({ ...plainStore(), drain: undefined }),
      '(got an object without drain())',
    ],
    [
      'a method that is not a function',
      () => ({ ...plainStore(), process: 'yes' }),
      '(got an object without process())',
    ],
    [
      'a Promise of a store (an async factory not awaited)',
      () => Promise.resolve(plainStore()),
      '(got a Promise: await your factory and pass the store it resolves to)',
    ],
    [
      'a thenable that also has every method',
      () => ({ ...plainStore(), then: () => undefined }),
      '(got a Promise: await your factory',
    ],
    [
      'the store class instead of an instance',
      () => PartnerInMemoryInboxStore,
      '(got the class PartnerInMemoryInboxStore: pass an instance, new PartnerInMemoryInboxStore(...))',
    ],
    ['a function', () => () => plainStore(), '(got a function)'],
    ['a string', () => 'memory', '(got a string)'],
    ['a boolean', () => true, '(got a boolean)'],
    ['an array', () => [], '(got an array without record()'],
  ])('refuses %s, naming inboxStore', (_label, make, got) => {
    const e = bootFailure({ inboxStore: make() });
    expect(e).toBeInstanceOf(PartnerConfigurationError);
    expect(e.field).toBe('inboxStore');
    expect(e.message).toContain(`PartnerPaymentsModule option "inboxStore" ${REQUIRED}`);
    expect(e.message).toContain(got);
  });

  it('refuses a store written to the earlier eight-method port, naming the methods it lacks', () => {
    const older = {
      record: async () => 'new' as const,
      markProcessed: async () => undefined,
      markFailed: async () => undefined,
      pending: async () => [],
    };
    expect(bootFailure({ inboxStore: older }).message).toContain(
      '(got an object without process(), drain())',
    );
  });

  it('is checked without options.webhooks too, and never puts the value in the message', () => {
    const e = bootFailure({ webhooks: undefined, inboxStore: 'postgres://user:pw@db/inbox' });
    expect(e.field).toBe('inboxStore');
    expect(e.message).not.toContain('postgres');
    expect(bootFailure({ webhooks: undefined, inboxStore: {} }).field).toBe('inboxStore');
  });
});

describe('options.webhooks.controller checked at boot', () => {
  it.each<[unknown, string]>([
    ['false', "(got a string: convert it, e.g. process.env.X !== 'false')"],
    ['true', '(got a string'],
    [0, '(got a number)'],
    [null, '(got null)'],
  ])('refuses %j, naming webhooks.controller', (controller, got) => {
    const e = bootFailure({ webhooks: { secrets: ['s'], controller } });
    expect(e).toBeInstanceOf(PartnerConfigurationError);
    expect(e.field).toBe('webhooks.controller');
    expect(e.message).toContain('PartnerPaymentsModule option "webhooks.controller" must be true or false');
    expect(e.message).toContain(got);
  });

  it('accepts true, false and nothing', () => {
    const enabled = (controller: unknown) =>
      resolvePartnerOptions({
        ...valid,
        webhooks: { secrets: ['s'], controller },
      } as PartnerPaymentsModuleOptions).webhookConfig.controllerEnabled;
    expect(enabled(false)).toBe(false);
    expect(enabled(true)).toBe(true);
    expect(enabled(undefined)).toBe(true);
  });
});
