import { NotFoundException, type LoggerService } from '@nestjs/common';
import { PartnerConfigurationError } from '../errors/partner-api.errors';
import { PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import { PartnerWebhookRouteEnabledGuard } from './partner-webhook.controller';
import { resolveWebhookOptions, type PartnerWebhookConfig } from './webhook-options.util';

const quietLog: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };
/** The webhook options as the module resolves them (resolvePartnerOptions). */
const resolve = (options: Parameters<typeof resolveWebhookOptions>[0]) =>
  resolveWebhookOptions(options, quietLog);

describe('resolveWebhookOptions', () => {
  it('applies defaults', () => {
    expect(resolve({ webhooks: { secrets: ['a'] } })).toMatchObject({
      secrets: ['a'],
      path: '/webhooks/partner',
      maxBodyBytes: 1_048_576,
      controllerEnabled: true,
      configured: true,
    });
    expect(resolve({})).toMatchObject({ secrets: [], configured: false });
  });

  it.each([
    [{ secrets: 'a' }, 'webhooks.secrets'],
    [{ secrets: [''] }, 'webhooks.secrets'],
    [{ secrets: ['a'], maxBodyBytes: 0 }, 'webhooks.maxBodyBytes'],
    [{ secrets: ['a'], path: ' ' }, 'webhooks.path'],
    [{ secrets: ['a'], controller: 'false' }, 'webhooks.controller'],
    [{ secrets: ['a'], batching: { maxBacklogg: 10 } }, 'webhooks.batching.maxBacklogg'],
    [{ secrets: ['a'], batching: { toString: 1 } }, 'webhooks.batching.toString'],
    [{ secrets: ['a'], batching: [] }, 'webhooks.batching'],
    [{ secrets: ['a'], batching: { maxWaitMs: 5 } }, 'inbox.maxWaitMs'],
  ])('refuses %j naming %s', (webhooks, field) => {
    expect(() => resolve({ webhooks })).toThrow(field);
  });

  it('refuses webhooks.batching that is not a plain object, as a PartnerConfigurationError', () => {
    expect(() => resolve({ webhooks: { secrets: ['a'], batching: [] } })).toThrow(PartnerConfigurationError);
    expect(resolve({ webhooks: { secrets: ['a'], batching: { maxBacklog: 3 } } }).batching).toEqual({
      maxBacklog: 3,
      maxBacklogWaitMs: 5_000,
    });
  });

  it('never puts a secret in an error message', () => {
    expect(() => resolve({ webhooks: { secrets: ['topsecret', 42] } })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('topsecret') }),
    );
  });
});

describe('PartnerWebhookRouteEnabledGuard', () => {
  it('turns the ready-made route into a 404 when options.webhooks.controller is false', () => {
    const config: PartnerWebhookConfig = resolve({
      webhooks: { secrets: ['a'], controller: false },
    });
    expect(() => new PartnerWebhookRouteEnabledGuard(config).canActivate()).toThrow(NotFoundException);
    const enabled = resolve({ webhooks: { secrets: ['a'] } });
    expect(new PartnerWebhookRouteEnabledGuard(enabled).canActivate()).toBe(true);
    expect(PARTNER_WEBHOOK_CONFIG).toBeDefined();
  });
});
