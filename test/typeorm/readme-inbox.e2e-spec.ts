/**
 * The steps of the package README's "A crash-safe webhook endpoint", on PostgreSQL (the README's
 * quick-start files themselves are built and crashed by test/docs/durable-consumer.spec.ts): the user's own
 * DataSource with the package's entities and migrations beside a `payouts` table of its own,
 * PartnerTypeOrmInboxStore handed to PartnerPaymentsModule through forRootAsync's `inject`, and
 * a handler writing through PartnerUnitOfWork. A signed delivery answered 2xx is stored, and the
 * handler's write commits with the processed mark; a handler that writes then throws leaves
 * neither its write nor a processed mark.
 */
import { randomUUID } from 'node:crypto';
import {
  Injectable,
  Logger,
  Module,
  type INestApplication,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  OnPartnerEvent,
  PartnerEvent,
  PartnerPaymentsModule,
  type PartnerEventOf,
} from '@partner-payments/nestjs';
import {
  PartnerInboxOperator,
  PartnerPaymentsTypeOrmModule,
  PartnerTypeOrmInboxStore,
  PartnerUnitOfWork,
  generateInboxKeyEntry,
  partnerTypeOrmEntities,
  partnerTypeOrmMigrations,
} from '@partner-payments/typeorm';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { sign } from '../webhooks/webhook-events.fixture';
import { packageLocationFor } from './typeorm-database.fixture';

jest.setTimeout(60_000);

const SECRET = 'whsec_readme';

class CreatePayouts1700000000000 implements MigrationInterface {
  name = 'CreatePayouts1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE payouts (partner_id text PRIMARY KEY, status text NOT NULL)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE payouts');
  }
}

/** The README's handler; `failAfterWrite` payouts throw once their write is made. */
@Injectable()
class PayoutHandler {
  static failAfterWrite = new Set<string>();
  constructor(private readonly uow: PartnerUnitOfWork) {}

  @OnPartnerEvent(PartnerEvent.PayoutCompleted)
  async completed(event: PartnerEventOf<'payout.completed'>): Promise<void> {
    await this.uow.run((m) =>
      m.query('UPDATE payouts SET status = $1 WHERE partner_id = $2', ['COMPLETED', event.payload.payout_id]),
    );
    if (PayoutHandler.failAfterWrite.has(event.payload.payout_id)) throw new Error('downstream refused');
  }
}

/** The README's jobs, the start pass alone (its crons need ScheduleModule and a minute). */
@Injectable()
class InboxJobs implements OnApplicationBootstrap {
  private readonly logger = new Logger(InboxJobs.name);
  constructor(private readonly inbox: PartnerInboxOperator) {}

  onApplicationBootstrap(): void {
    this.inbox.drain({ minAgeMs: 0 }).catch((error: Error) => this.logger.error(error.message));
  }
}

/** One key for every start, as the README's secret store gives it. */
const SEALING_KEYS = generateInboxKeyEntry('k1');

function appModule(url: string) {
  @Module({
    imports: [
      TypeOrmModule.forRoot({
        type: 'postgres',
        url,
        entities: [...partnerTypeOrmEntities],
        migrations: [CreatePayouts1700000000000, ...partnerTypeOrmMigrations],
        migrationsRun: true,
      }),
      EventEmitterModule.forRoot(),
      PartnerPaymentsTypeOrmModule.forRoot({ inbox: { sealingKeys: SEALING_KEYS } }),
      PartnerPaymentsModule.forRootAsync({
        inject: [PartnerTypeOrmInboxStore],
        useFactory: (inbox: PartnerTypeOrmInboxStore) => ({
          environment: 'sandbox',
          baseUrl: 'http://127.0.0.1:9',
          apiKey: 'k',
          clientId: 'c',
          password: 'p',
          webhooks: { secrets: [SECRET] },
          inboxStore: inbox,
        }),
        isGlobal: true,
      }),
    ],
    providers: [PayoutHandler, InboxJobs],
  })
  class AppModule {}
  return AppModule;
}

describe('the README inbox endpoint on PostgreSQL', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let cleanup: () => void;
  let url: string;

  async function start(): Promise<void> {
    app = await NestFactory.create(appModule(url), { logger: false, rawBody: true });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    ds = app.get(DataSource);
  }

  beforeAll(async () => {
    const found = await packageLocationFor('postgres', 'readme-inbox');
    cleanup = found.cleanup;
    url = found.location;
    await start();
  });
  afterAll(async () => {
    await app?.close();
    cleanup?.();
  });

  async function deliver(payoutId: string): Promise<{ status: number; eventId: string }> {
    await ds.query("INSERT INTO payouts (partner_id, status) VALUES ($1, 'PENDING')", [payoutId]);
    const eventId = randomUUID();
    const raw = JSON.stringify({
      event: 'payout.completed',
      data: { event_id: eventId, payout_id: payoutId, status: 'completed', reference_number: 'IMAD-1' },
    });
    const res = await fetch(`${base}/webhooks/partner`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-sha256': sign(raw, SECRET) },
      body: raw,
    });
    return { status: res.status, eventId };
  }

  /** The entry's state once it has left `pending` (up to 10 s), or `pending`. */
  async function settled(eventId: string): Promise<string> {
    const store = app.get(PartnerTypeOrmInboxStore);
    for (let i = 0; i < 200; i++) {
      const entry = await store.get(eventId);
      if (entry && entry.state !== 'pending') return entry.state;
      await new Promise((r) => setTimeout(r, 50));
    }
    return 'pending';
  }

  const statusOf = async (payoutId: string): Promise<string> =>
    (
      (await ds.query('SELECT status FROM payouts WHERE partner_id = $1', [payoutId])) as Array<{
        status: string;
      }>
    )[0].status;

  it('stores the delivery before the 2xx, and the handler write commits with the processed mark', async () => {
    const payoutId = randomUUID();
    const { status, eventId } = await deliver(payoutId);
    expect(status).toBeLessThan(300);
    expect(await app.get(PartnerTypeOrmInboxStore).get(eventId)).not.toBeNull();
    expect(await settled(eventId)).toBe('processed');
    expect(await statusOf(payoutId)).toBe('COMPLETED');
  });

  it('a handler that writes then throws leaves neither its write nor a processed mark', async () => {
    const payoutId = randomUUID();
    PayoutHandler.failAfterWrite.add(payoutId);
    const { status, eventId } = await deliver(payoutId);
    expect(status).toBeLessThan(300);
    expect(await settled(eventId)).toBe('failed');
    expect(await statusOf(payoutId)).toBe('PENDING');
    // Fixed downstream: an operator's retry applies it once.
    PayoutHandler.failAfterWrite.delete(payoutId);
    await ds.query(
      "UPDATE webhook_inbox SET next_attempt_at = now() - interval '1 second' WHERE state = 'failed'",
    );
    await app.get(PartnerInboxOperator).drain({ minAgeMs: 0 });
    expect(await settled(eventId)).toBe('processed');
    expect(await statusOf(payoutId)).toBe('COMPLETED');
  });

  it('processes at the next start what was recorded but not processed before a crash', async () => {
    const payoutId = randomUUID();
    await ds.query("INSERT INTO payouts (partner_id, status) VALUES ($1, 'PENDING')", [payoutId]);
    const eventId = randomUUID();
    // Recorded, as the route records before its 2xx, and never processed: the process dies here.
    const body = { event_id: eventId, payout_id: payoutId, status: 'completed', reference_number: 'IMAD-1' };
    await app.get(PartnerTypeOrmInboxStore).record({
      eventId,
      name: 'payout.completed',
      envelope: 'flat',
      rawBody: JSON.stringify({ event: 'payout.completed', data: body }),
      receivedAt: new Date(),
    });
    await app.close();
    await start();
    expect(await settled(eventId)).toBe('processed');
    expect(await statusOf(payoutId)).toBe('COMPLETED');
  });
});
