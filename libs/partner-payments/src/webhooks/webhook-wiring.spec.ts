import { Injectable, type LoggerService } from '@nestjs/common';
import { EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { PartnerConfigurationError } from '../errors/partner-api.errors';
import { PartnerPaymentsModule } from '../partner-payments.module';
import { PARTNER_INBOX_STORE } from '../partner-payments.constants';
import { PartnerInMemoryInboxStore } from './inbox/inbox-memory.store';
import type { PartnerInboxStore } from './inbox/inbox.store';
import { OnPartnerEvent } from './events/on-partner-event.decorator';
import { PartnerDerivedEvent, PartnerEvent } from './events/partner-event.constants';
import type { PartnerEventOf, PartnerPayoutStatusEvent } from './events/partner-event.types';
import { PartnerWebhookIngestService } from './partner-webhook-ingest.service';
import { PartnerWebhookProcessingService } from './partner-webhook-processing.service';
import { computePartnerSignature } from './signature.util';
import { PartnerWebhookBootCheck } from './webhook-boot-check.service';

@Injectable()
class TypedHandlers {
  completed: string[] = [];
  statuses: PartnerPayoutStatusEvent[] = [];
  failNext = false;
  @OnPartnerEvent(PartnerEvent.PayoutCompleted)
  onCompleted(event: PartnerEventOf<'payout.completed'>): void {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('handler failed');
    }
    this.completed.push(event.payload.reference_number ?? 'none');
  }
  @OnPartnerEvent(PartnerDerivedEvent.PayoutStatus)
  onStatus(event: PartnerPayoutStatusEvent): void {
    this.statuses.push(event);
  }
}

@Injectable()
class DetachedHandlers {
  @OnPartnerEvent(PartnerEvent.PayoutCompleted, { async: true })
  onCompleted(): void {
    throw new Error('runs on a later tick: emitAsync never sees this');
  }
  @OnPartnerEvent(PartnerEvent.PayoutFailed, { async: true, promisify: true })
  onFailed(): void {
    return undefined;
  }
}

@Injectable()
class PlainHandlers {
  @OnEvent(PartnerEvent.UserCreated)
  onUser(): void {
    throw new Error('swallowed by @OnEvent default');
  }
}

function logger() {
  const warnings: string[] = [];
  const log: LoggerService = {
    log: () => undefined,
    error: () => undefined,
    warn: (m: unknown) => void warnings.push(String(m)),
  };
  return { log, warnings };
}

const CREDENTIALS = { baseUrl: 'https://api.partner.example', apiKey: 'k', clientId: 'c', password: 'p' };

async function boot(
  options: Record<string, unknown>,
  extra: {
    providers?: Array<new (...a: never[]) => unknown>;
    path?: string;
    rawBody?: boolean;
    emitter?: boolean;
  } = {},
) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ...(extra.emitter === false ? [] : [EventEmitterModule.forRoot()]),
      PartnerPaymentsModule.forRoot({
        ...CREDENTIALS,
        ...options,
        webhookController: extra.path ? { path: extra.path } : false,
      }),
    ],
    providers: extra.providers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false, rawBody: extra.rawBody ?? true });
  await app.init();
  return app;
}

const completed = Buffer.from(
  JSON.stringify({
    event: 'payout.completed',
    data: { event_id: 'e1', payout_id: 'p1', status: 'completed', reference_number: 'R1' },
  }),
);

describe('webhook providers wired in a Nest app', () => {
  it('delivers typed payloads to @OnPartnerEvent handlers, and their errors are not swallowed', async () => {
    const { log } = logger();
    const app = await boot({ logger: log, webhooks: { secrets: ['s'] } }, { providers: [TypedHandlers] });
    try {
      const service = {
        ingest: app.get(PartnerWebhookIngestService),
        processing: app.get(PartnerWebhookProcessingService),
      };
      const handlers = app.get(TypedHandlers);
      handlers.failNext = true;
      const headers = { 'x-signature-sha256': computePartnerSignature(completed, 's') };
      const first = await service.ingest.handle(completed, headers, { waitForProcessing: true });
      await expect(first.processing).resolves.toMatchObject({ outcome: 'failed', error: 'handler failed' });
      const inbox = app.get<PartnerInMemoryInboxStore>(PARTNER_INBOX_STORE);
      expect(inbox).toBeInstanceOf(PartnerInMemoryInboxStore);
      expect(inbox.get('e1')?.state).toBe('failed');
      await service.processing.redeliver({ eventId: 'e1', rawBody: completed.toString() });
      expect(handlers.completed).toEqual(['R1']);
      expect(handlers.statuses).toHaveLength(1);
      expect(inbox.get('e1')?.state).toBe('processed');
    } finally {
      await app.close();
    }
  });

  it('uses options.inboxStore when given', async () => {
    const store = new PartnerInMemoryInboxStore();
    const app = await boot({ inboxStore: store, webhooks: { secrets: ['s'] } });
    try {
      expect(app.get(PARTNER_INBOX_STORE)).toBe(store);
    } finally {
      await app.close();
    }
  });

  it('emits the unified status of each delivery of one transition, both families, remembering nothing (spec 6.4.7)', async () => {
    const app = await boot({ webhooks: { secrets: ['s'] } }, { providers: [TypedHandlers] });
    try {
      const ingest = app.get(PartnerWebhookIngestService);
      const statusChanged = Buffer.from(
        JSON.stringify({
          event: 'payout.status_changed',
          data: {
            event_id: 'e2',
            event_type: 'payout.status_changed',
            created_at: '2026-04-14T12:00:00Z',
            data: { payout_id: 'p1', status: 'COMPLETED', previous_status: 'PROCESSING' },
          },
        }),
      );
      for (const body of [completed, statusChanged, completed])
        await ingest.handle(
          body,
          { 'x-signature-sha256': computePartnerSignature(body, 's') },
          { waitForProcessing: true },
        );
      // The twin is announced too (the app's projection finds it unchanged); the repeated delivery
      // of e1 is not (the inbox runs each event id once, spec 6.1.4).
      expect(app.get(TypedHandlers).statuses).toEqual([
        expect.objectContaining({ payoutId: 'p1', status: 'COMPLETED', eventId: 'e1' }),
        expect.objectContaining({ payoutId: 'p1', status: 'COMPLETED', eventId: 'e2' }),
      ]);
    } finally {
      await app.close();
    }
  });
});

describe('a webhook configuration the pipeline cannot use fails the boot (not every delivery)', () => {
  const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };
  const base = { ...CREDENTIALS, logger: quiet, webhooks: { secrets: ['s'] } };
  const asStore = (value: unknown) => value as PartnerInboxStore;
  /** An async factory, called and not awaited: the mistake the Promise case stands for. */
  const openStore = async (): Promise<PartnerInboxStore> => new PartnerInMemoryInboxStore();

  async function bootError(compile: () => Promise<unknown>): Promise<PartnerConfigurationError> {
    let booted: unknown;
    try {
      booted = await compile();
    } catch (error) {
      expect(error).toBeInstanceOf(PartnerConfigurationError);
      return error as PartnerConfigurationError;
    }
    await (booted as { close?: () => Promise<void> }).close?.();
    throw new Error('expected the boot to fail with a PartnerConfigurationError');
  }
  const forRoot = (options: Record<string, unknown>) => () =>
    Test.createTestingModule({
      imports: [PartnerPaymentsModule.forRoot({ ...base, ...options, webhookController: false })],
    }).compile();

  it.each<[string, () => unknown, string]>([
    ['{}', () => ({}), 'got an object without record(), process(), drain()'],
    ['a Promise of a store', () => openStore(), 'got a Promise: await your factory'],
    ['the store class', () => PartnerInMemoryInboxStore, 'got the class PartnerInMemoryInboxStore'],
    [
      'a store with process: true',
      () => Object.assign(new PartnerInMemoryInboxStore(), { process: true }),
      'got an object without process()',
    ],
  ])('PartnerPaymentsModule.forRoot refuses inboxStore %s, naming the field', async (_label, make, got) => {
    const e = await bootError(forRoot({ inboxStore: asStore(make()) }));
    expect(e.field).toBe('inboxStore');
    expect(e.message).toContain(got);
  });

  it('PartnerPaymentsModule.forRootAsync refuses a store factory that was not awaited', async () => {
    const e = await bootError(() =>
      Test.createTestingModule({
        imports: [
          PartnerPaymentsModule.forRootAsync({
            useFactory: () => ({ ...base, inboxStore: asStore(openStore()) }),
            webhookController: false,
          }),
        ],
      }).compile(),
    );
    expect(e.field).toBe('inboxStore');
    expect(e.message).toBe(
      'PartnerPaymentsModule option "inboxStore" must be an object with record(), process(), ' +
        'drain() functions (got a Promise: await your factory and pass the store it resolves to)',
    );
  });

  it("refuses webhooks.controller 'false' (a string from an env var) instead of keeping the route on", async () => {
    const e = await bootError(forRoot({ webhooks: { secrets: ['s'], controller: 'false' } }));
    expect(e.field).toBe('webhooks.controller');
    expect(e.message).toContain('must be true or false (got a string');
  });

  it('the webhook providers registered on their own refuse a bad store too', async () => {
    const e = await bootError(() => boot({ webhooks: { secrets: ['s'] }, inboxStore: {} }));
    expect(e.field).toBe('inboxStore');
  });

  it('boots with a valid store and with none (the in-memory store, given the module logger)', async () => {
    const errors: string[] = [];
    const log: LoggerService = {
      log: () => undefined,
      warn: () => undefined,
      error: (m: unknown) => void errors.push(String(m)),
    };
    const app = await boot({ logger: log, webhooks: { secrets: ['s'] } });
    try {
      const inbox = app.get<PartnerInMemoryInboxStore>(PARTNER_INBOX_STORE);
      expect(inbox).toBeInstanceOf(PartnerInMemoryInboxStore);
      // Default maxEntries 10_000: the 10_001st unfinished entry evicts the first, said through options.logger.
      for (let i = 0; i <= 10_000; i += 1) {
        await inbox.record({
          eventId: `e${i}`,
          name: 'payout.completed',
          envelope: 'flat',
          rawBody: '{"secret-body":1}',
          receivedAt: new Date(),
        });
      }
      expect(errors).toEqual([expect.stringContaining('Partner webhook payout.completed (e0) dropped')]);
    } finally {
      await app.close();
    }
    const ref = await forRoot({ inboxStore: new PartnerInMemoryInboxStore() })();
    await ref.close();
  });
});

describe('PartnerWebhookBootCheck', () => {
  it('warns when partner handlers exist but no webhook secret is configured', async () => {
    const { log, warnings } = logger();
    const app = await boot({ logger: log }, { providers: [TypedHandlers] });
    try {
      expect(warnings.join('\n')).toContain('no webhook secret is configured');
      expect(app.get(PartnerWebhookBootCheck).lastReport?.handlers.map((h) => h.event)).toEqual([
        'payout.completed',
        PartnerDerivedEvent.PayoutStatus,
      ]);
    } finally {
      await app.close();
    }
  });

  it('is quiet for a correct set-up (an inboxStore given)', async () => {
    const { log, warnings } = logger();
    const app = await boot(
      { logger: log, webhooks: { secrets: ['s'] }, inboxStore: new PartnerInMemoryInboxStore() },
      { providers: [TypedHandlers], path: '/webhooks/partner' },
    );
    try {
      expect(warnings).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('warns at boot when the app keeps no raw body (created without rawBody: true)', async () => {
    const { log, warnings } = logger();
    const app = await boot({ logger: log, webhooks: { secrets: ['s'] } }, { rawBody: false });
    try {
      expect(warnings.join('\n')).toContain('NestFactory.create(AppModule, { rawBody: true })');
      expect(app.get(PartnerWebhookBootCheck).lastReport?.rawBody).toBe('missing');
    } finally {
      await app.close();
    }
    const ok = await boot({ logger: log, webhooks: { secrets: ['s'] } }, { rawBody: true });
    try {
      expect(ok.get(PartnerWebhookBootCheck).lastReport?.rawBody).toBe('available');
    } finally {
      await ok.close();
    }
  });

  it('warns when EventEmitterModule.forRoot() is missing (handlers would never run)', async () => {
    const { log, warnings } = logger();
    const app = await boot(
      { logger: log, webhooks: { secrets: ['s'] }, inboxStore: new PartnerInMemoryInboxStore() },
      { emitter: false },
    );
    try {
      expect(warnings).toEqual([
        'Partner webhooks need EventEmitter2: import EventEmitterModule.forRoot() in your AppModule.',
      ]);
    } finally {
      await app.close();
    }
  });

  it('warns about @OnEvent handlers whose errors would be swallowed', async () => {
    const { log, warnings } = logger();
    const app = await boot({ logger: log, webhooks: { secrets: ['s'] } }, { providers: [PlainHandlers] });
    try {
      expect(warnings.join('\n')).toMatch(/PlainHandlers\.onUser handles 'user\.created'.*suppressErrors/);
    } finally {
      await app.close();
    }
  });

  it('warns about handlers registered { async: true } without promisify (detached, failures lost)', async () => {
    const { log, warnings } = logger();
    const app = await boot(
      { logger: log, webhooks: { secrets: ['s'] }, inboxStore: new PartnerInMemoryInboxStore() },
      { providers: [DetachedHandlers] },
    );
    try {
      expect(warnings).toEqual([
        expect.stringMatching(
          /^DetachedHandlers\.onCompleted handles 'payout\.completed' with \{ async: true \}/,
        ),
      ]);
    } finally {
      await app.close();
    }
  });

  it('warns when webhooks are configured and the default in-memory inbox is in use', async () => {
    const { log, warnings } = logger();
    const app = await boot(
      { logger: log, webhooks: { secrets: ['s'] } },
      { providers: [TypedHandlers], path: '/webhooks/partner' },
    );
    try {
      expect(warnings).toEqual([
        'Partner webhooks use the default in-memory inbox (no options.inboxStore): it is not durable, so a ' +
          'restart loses events acknowledged but not yet processed, and when full it drops the oldest ' +
          'unprocessed ones (each logged as an error). The partner does not redeliver (spec 6.1.4): pass a ' +
          'durable inboxStore in production.',
      ]);
      expect(app.get(PARTNER_INBOX_STORE)).toBeInstanceOf(PartnerInMemoryInboxStore);
    } finally {
      await app.close();
    }
    // Webhooks not configured: nothing is received, nothing to warn about.
    const quiet = logger();
    const off = await boot({ logger: quiet.log });
    try {
      expect(quiet.warnings).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it('warns when options.webhooks.path differs from the registered route', async () => {
    const { log, warnings } = logger();
    const app = await boot(
      { logger: log, webhooks: { secrets: ['s'], path: '/hooks/b' } },
      { path: '/hooks/a' },
    );
    try {
      expect(warnings.join('\n')).toContain(
        `options.webhooks.path is '/hooks/b' but the webhook route is registered at '/hooks/a'`,
      );
    } finally {
      await app.close();
    }
  });
});
