/**
 * PartnerPaymentsModule in a real Nest app: forRoot / forRootAsync (useFactory, useClass,
 * useExisting), boot-time validation, exported providers, isGlobal, webhookController extras, and
 * calls through the module's own HttpService axios instance against the sandbox.
 */
import { Injectable, Module, type INestApplication, type LoggerService } from '@nestjs/common';
import { HttpService } from '@nestjs/axios';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { startPartnerSandbox, type PartnerSandbox } from '@partner-payments/testing';
import {
  PartnerPaymentsClient,
  PartnerPaymentsModule,
  PartnerClientConfigService,
  PartnerPayoutsService,
  PartnerQuotationsService,
  PartnerRecipientsService,
  PartnerReferenceDataService,
  PartnerRfisService,
  PartnerUsersService,
  PartnerVersioningService,
  PartnerVirtualAccountsService,
  createPartnerPaymentsClient,
  type PartnerPaymentsModuleOptions,
  type PartnerPaymentsOptionsFactory,
} from '@partner-payments/nestjs';
import { PartnerConfigurationError } from '@partner-payments/nestjs/errors';
import { PartnerTokenManager } from '../../libs/partner-payments/src/auth/token-manager.service';
import { PartnerApiVersionState } from '../../libs/partner-payments/src/http/api-version-state.service';
import {
  PARTNER_INBOX_STORE,
  PARTNER_LOGGER,
  PARTNER_RESOLVED_OPTIONS,
} from '../../libs/partner-payments/src/partner-payments.constants';
import { PartnerHttpClient } from '../../libs/partner-payments/src/http/partner-http.client';
import { type ResolvedPartnerOptions } from '../../libs/partner-payments/src/options-resolver.util';
import * as publicApi from '@partner-payments/nestjs';
import {
  PARTNER_RESOURCE_NAMES,
  PARTNER_RESOURCES,
} from '../../libs/partner-payments/src/resources/partner-payments.client';

// Every resource service a user injects, with the client property that holds the same instance.
const RESOURCE_SERVICES = [
  ['users', PartnerUsersService],
  ['recipients', PartnerRecipientsService],
  ['virtualAccounts', PartnerVirtualAccountsService],
  ['payouts', PartnerPayoutsService],
  ['rfis', PartnerRfisService],
  ['clientConfig', PartnerClientConfigService],
  ['versioning', PartnerVersioningService],
  ['referenceData', PartnerReferenceDataService],
  ['quotations', PartnerQuotationsService],
] as const;

const silent: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('PartnerPaymentsModule', () => {
  let sandbox: PartnerSandbox;
  let options: PartnerPaymentsModuleOptions;
  beforeAll(async () => {
    sandbox = await startPartnerSandbox({ quiet: true });
    options = {
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.credentials.apiKey,
      clientId: sandbox.credentials.clientId,
      password: sandbox.credentials.password,
      clientUuid: sandbox.credentials.clientUuid,
      logger: silent,
    };
  });
  afterAll(() => sandbox.close());

  it('lists every resource of PARTNER_RESOURCES, so the checks below cover a new one', () => {
    expect(RESOURCE_SERVICES.map(([name]) => name)).toEqual(PARTNER_RESOURCE_NAMES);
    for (const [name, service] of RESOURCE_SERVICES) expect(PARTNER_RESOURCES[name].service).toBe(service);
  });

  it('forRoot: resolves options with defaults, provides every service, calls the sandbox', async () => {
    const ref = await Test.createTestingModule({
      imports: [PartnerPaymentsModule.forRoot({ ...options, webhookController: false })],
    }).compile();
    const resolved = ref.get<ResolvedPartnerOptions>(PARTNER_RESOLVED_OPTIONS);
    expect(resolved).toMatchObject({
      apiBaseUrl: `${sandbox.baseUrl}/sandbox`,
      apiVersion: '2026-04-14',
      maxRetries: 2,
    });
    expect(ref.get(PARTNER_LOGGER)).toBe(silent);
    expect(ref.get(PARTNER_INBOX_STORE)).toBeDefined();
    const client = ref.get(PartnerPaymentsClient);
    for (const [name, service] of RESOURCE_SERVICES) {
      expect(client[name]).toBeInstanceOf(service);
      expect(ref.get<unknown>(service)).toBe(client[name]);
    }
    expect(ref.get(PartnerTokenManager)).toBe(client.auth);
    expect(ref.get(PartnerApiVersionState)).toBe(client.versionState);
    expect(ref.get(PartnerHttpClient)).toBe(client.http);
    const user = await ref.get(PartnerUsersService).create({
      type: 'individual',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      source_of_funds: 'salary',
    });
    await expect(client.users.get(user.userId)).resolves.toMatchObject({ userId: user.userId });
    await ref.close();
  });

  it("sends through the module's own HttpService axios instance", async () => {
    const ref = await Test.createTestingModule({
      imports: [PartnerPaymentsModule.forRoot({ ...options, webhookController: false })],
    }).compile();
    const seen: string[] = [];
    ref.get(HttpService).axiosRef.interceptors.request.use((config) => {
      seen.push(String(config.url));
      return config;
    });
    await ref.get(PartnerPaymentsClient).users.list({ limit: 1 });
    expect(seen).toEqual([`${sandbox.baseUrl}/sandbox/auth`, `${sandbox.baseUrl}/sandbox/v1/users?limit=1`]);
    await ref.close();
  });

  it('createPartnerPaymentsClient: the same resources without Nest, sharing one token', async () => {
    const client = createPartnerPaymentsClient(options);
    for (const [name, service] of RESOURCE_SERVICES) expect(client[name]).toBeInstanceOf(service);
    await client.users.list({ limit: 1 });
    const token = await client.auth.getToken();
    await expect(client.clientConfig.get()).resolves.toMatchObject({
      client: { client_uuid: sandbox.credentials.clientUuid },
    });
    expect(await client.auth.getToken()).toBe(token);
  });

  it('forRootAsync with useFactory + inject', async () => {
    @Module({ providers: [{ provide: 'CFG', useValue: { url: sandbox.baseUrl } }], exports: ['CFG'] })
    class ConfigModule {}
    const ref = await Test.createTestingModule({
      imports: [
        PartnerPaymentsModule.forRootAsync({
          imports: [ConfigModule],
          inject: ['CFG'],
          useFactory: (cfg: { url: string }) => ({ ...options, baseUrl: cfg.url, maxRetries: 0 }),
          webhookController: false,
        }),
      ],
    }).compile();
    expect(ref.get<ResolvedPartnerOptions>(PARTNER_RESOLVED_OPTIONS).maxRetries).toBe(0);
    await expect(ref.get(PartnerPaymentsClient).clientConfig.get()).resolves.toMatchObject({
      client: { client_uuid: sandbox.credentials.clientUuid },
    });
    await ref.close();
  });

  it('the public surface leaves out the ConfigurableModuleBuilder internals and the test fixtures', () => {
    const names = Object.keys(publicApi);
    for (const internal of [
      'ConfigurableModuleClass',
      'MODULE_OPTIONS_TOKEN',
      'OPTIONS_TYPE',
      'ASYNC_OPTIONS_TYPE',
      'startLocalServer',
      'samplePdf',
    ]) {
      expect(names).not.toContain(internal);
    }
    expect(names).toEqual(
      expect.arrayContaining(['PartnerPaymentsModule', 'PARTNER_PAYMENTS_OPTIONS', 'PartnerPaymentsClient']),
    );
  });

  it('forRootAsync with useClass', async () => {
    @Injectable()
    class OptionsFactory implements PartnerPaymentsOptionsFactory {
      createPartnerPaymentsOptions(): PartnerPaymentsModuleOptions {
        return { ...options, timeoutMs: 1234 };
      }
    }
    const ref = await Test.createTestingModule({
      imports: [PartnerPaymentsModule.forRootAsync({ useClass: OptionsFactory, webhookController: false })],
    }).compile();
    expect(ref.get<ResolvedPartnerOptions>(PARTNER_RESOLVED_OPTIONS).timeoutMs).toBe(1234);
    await ref.close();
  });

  it('forRootAsync with useExisting (a factory another module exports)', async () => {
    @Injectable()
    class SharedOptions {
      createPartnerPaymentsOptions(): PartnerPaymentsModuleOptions {
        return { ...options, tokenRefreshSkewSeconds: 60 };
      }
    }
    @Module({ providers: [SharedOptions], exports: [SharedOptions] })
    class SharedModule {}
    const ref = await Test.createTestingModule({
      imports: [
        PartnerPaymentsModule.forRootAsync({
          imports: [SharedModule],
          useExisting: SharedOptions,
          webhookController: false,
        }),
      ],
    }).compile();
    expect(ref.get<ResolvedPartnerOptions>(PARTNER_RESOLVED_OPTIONS).tokenRefreshSkewSeconds).toBe(60);
    await ref.close();
  });

  it('a missing credential fails the boot naming the field', async () => {
    const { password: _omit, ...noPassword } = options;
    const boot = Test.createTestingModule({
      imports: [
        PartnerPaymentsModule.forRoot({
          ...(noPassword as PartnerPaymentsModuleOptions),
          webhookController: false,
        }),
      ],
    }).compile();
    await expect(boot).rejects.toBeInstanceOf(PartnerConfigurationError);
    await expect(
      Test.createTestingModule({
        imports: [PartnerPaymentsModule.forRoot({ ...options, maxRetries: -1, webhookController: false })],
      }).compile(),
    ).rejects.toThrow(/"maxRetries"/);
  });

  it('isGlobal makes the services injectable from another module', async () => {
    @Injectable()
    class PayoutFeature {
      constructor(readonly payouts: PartnerPayoutsService) {}
    }
    @Module({ providers: [PayoutFeature], exports: [PayoutFeature] })
    class FeatureModule {}
    const ref = await Test.createTestingModule({
      imports: [
        PartnerPaymentsModule.forRoot({ ...options, isGlobal: true, webhookController: false }),
        FeatureModule,
      ],
    }).compile();
    expect(ref.get(PayoutFeature).payouts).toBe(ref.get(PartnerPayoutsService));
    await ref.close();
  });

  it('registers the webhook controller at /webhooks/partner by default, and not with webhookController: false', async () => {
    const status = async (
      extras: { webhookController?: false | { path?: string } },
      path: string,
    ): Promise<number> => {
      @Module({
        imports: [PartnerPaymentsModule.forRoot({ ...options, webhooks: { secrets: ['s'] }, ...extras })],
      })
      class AppModule {}
      const app: INestApplication = await NestFactory.create(AppModule, { logger: false, rawBody: true });
      await app.listen(0, '127.0.0.1');
      try {
        const res = await fetch(`${await app.getUrl()}${path}`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        });
        return res.status;
      } finally {
        await app.close();
      }
    };
    // unsigned delivery: 401 from the controller (it exists), 404 where it was not registered
    expect(await status({}, '/webhooks/partner')).toBe(401);
    expect(await status({ webhookController: { path: '/hooks/p' } }, '/hooks/p')).toBe(401);
    expect(await status({ webhookController: false }, '/webhooks/partner')).toBe(404);
  });
});
