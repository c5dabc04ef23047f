import { PartnerConfigurationError } from '../../errors/partner-api.errors';
import { resolvePartnerOptions } from '../../options-resolver.util';
import type { PartnerPaymentsModuleOptions } from '../../partner-payments.options';
import { resolvePartnerWebhookConfig } from '../webhook.config';
import { PartnerInMemoryInboxStore } from './inbox-memory.store';
import { checkInboxStore } from './inbox-store-check.util';

const valid: PartnerPaymentsModuleOptions = {
  baseUrl: 'https://api.partner.example',
  apiKey: 'k',
  clientId: 'c',
  password: 'p',
  webhooks: { secrets: ['s'] },
};

/** A store with the four required methods, as a plain object. */
const plainStore = () => ({
  record: async () => 'new' as const,
  markProcessed: async () => undefined,
  markFailed: async () => undefined,
  pending: async () => [],
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

const REQUIRED = 'must be an object with record(), markProcessed(), markFailed(), pending() functions';

describe('options.inboxStore checked at boot', () => {
  it('accepts no store (the module then uses its in-memory one), an instance, and a plain object', () => {
    expect(checkInboxStore(undefined)).toBeNull();
    expect(checkInboxStore(null)).toBeNull();
    const instance = new PartnerInMemoryInboxStore();
    expect(checkInboxStore(instance)).toBe(instance);
    const plain = plainStore();
    expect(checkInboxStore(plain)).toBe(plain);
    const withOptional = { ...plainStore(), runProcessing: undefined, processBatch: null };
    expect(checkInboxStore(withOptional)).toBe(withOptional);
    expect(resolvePartnerOptions({ ...valid, inboxStore: instance }).webhookConfig.inboxStore).toBe(instance);
    expect(resolvePartnerOptions(valid).webhookConfig.inboxStore).toBeNull();
  });

  it.each<[string, () => unknown, string]>([
    [
      'an empty object',
      () => ({}),
      '(got an object without record(), markProcessed(), markFailed(), pending())',
    ],
    [
      'an object missing one method',
      () => ({ ...plainStore(), pending: undefined }),
      '(got an object without pending())',
    ],
    [
      'a method that is not a function',
      () => ({ ...plainStore(), markFailed: 'yes' }),
      '(got an object without markFailed())',
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

  it.each(['runProcessing', 'recordBatch', 'processBatch', 'claimDue'])(
    'refuses an optional %s that is present but not a function',
    (method) => {
      const e = bootFailure({ inboxStore: { ...plainStore(), [method]: true } });
      expect(e.field).toBe('inboxStore');
      expect(e.message).toBe(
        `PartnerPaymentsModule option "inboxStore" has ${method} but it is not a function (got a boolean): ` +
          `${method}() is optional, leave it out or make it a method`,
      );
    },
  );

  it('is checked without options.webhooks too, and never puts the value in the message', () => {
    const e = bootFailure({ webhooks: undefined, inboxStore: 'postgres://user:pw@db/inbox' });
    expect(e.field).toBe('inboxStore');
    expect(e.message).not.toContain('postgres');
    expect(() => resolvePartnerWebhookConfig({ inboxStore: {} })).toThrow(PartnerConfigurationError);
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
      resolvePartnerWebhookConfig({ webhooks: { secrets: ['s'], controller } }).controllerEnabled;
    expect(enabled(false)).toBe(false);
    expect(enabled(true)).toBe(true);
    expect(enabled(undefined)).toBe(true);
  });
});
