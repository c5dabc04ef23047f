/**
 * A plain Nest app with its own TypeOrmModule.forRoot and its own entity, importing
 * PartnerPaymentsTypeOrmModule as the package README says: SQLite in the development setup
 * (`synchronize: true`, a named connection), PostgreSQL with migrations. Two such apps on one
 * database are two replicas: a job runs on one of them at a time.
 */
import { Injectable, Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Cron, ScheduleModule } from '@nestjs/schedule';
import {
  getDataSourceToken,
  InjectRepository,
  TypeOrmModule,
  type TypeOrmModuleOptions,
} from '@nestjs/typeorm';
import {
  PartnerJobLockService,
  PartnerJobLockEntity,
  PartnerPaymentsTypeOrmModule,
  type PartnerPaymentsTypeOrmOptions,
  partnerTypeOrmEntities,
  partnerTypeOrmMigrations,
} from '@partner-payments/typeorm';
import {
  Column,
  DataSource,
  Entity,
  PrimaryGeneratedColumn,
  Repository,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
import { packageLocationFor, type PackageDatabaseKind } from './typeorm-database.fixture';

jest.setTimeout(60_000);

/** A named connection: the package joins it by `dataSource: CONNECTION`. */
const CONNECTION = 'payments';

@Entity({ name: 'notes' })
class NoteEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 64 })
  text!: string;
}

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE notes (id SERIAL PRIMARY KEY, text varchar(64) NOT NULL)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE notes');
  }
}

/** The consumer's job, as the README writes it. */
@Injectable()
class NightlyJob {
  gate: Promise<void> = Promise.resolve();
  started = false;

  constructor(
    private readonly locks: PartnerJobLockService,
    @InjectRepository(NoteEntity, CONNECTION) private readonly notes: Repository<NoteEntity>,
  ) {}

  @Cron('0 3 * * *', { name: 'nightly' })
  async run() {
    return this.locks.runExclusive('nightly', async () => {
      this.started = true;
      await this.gate;
      await this.notes.insert({ text: 'nightly ran' });
      return this.notes.count();
    });
  }
}

/** `options` given, the module is imported by forRootAsync with a factory answering them. */
function consumerModule(
  kind: PackageDatabaseKind,
  location: string,
  options?: PartnerPaymentsTypeOrmOptions,
): DynamicModule {
  const entities = [NoteEntity, ...partnerTypeOrmEntities];
  const typeorm: TypeOrmModuleOptions =
    kind === 'sqlite'
      ? { name: CONNECTION, type: 'better-sqlite3', database: location, entities, synchronize: true }
      : {
          name: CONNECTION,
          type: 'postgres',
          url: location,
          entities,
          migrations: [CreateNotes1700000000000, ...partnerTypeOrmMigrations],
          migrationsRun: true,
        };
  @Module({
    imports: [
      TypeOrmModule.forRoot(typeorm),
      TypeOrmModule.forFeature([NoteEntity], CONNECTION),
      ScheduleModule.forRoot(),
      options
        ? PartnerPaymentsTypeOrmModule.forRootAsync({
            dataSource: CONNECTION,
            useFactory: async () => options,
          })
        : PartnerPaymentsTypeOrmModule.forRoot({ dataSource: CONNECTION }),
    ],
    providers: [NightlyJob],
  })
  class ConsumerModule {}
  return { module: ConsumerModule };
}

async function boot(module: DynamicModule): Promise<INestApplicationContext> {
  const ref = await Test.createTestingModule({ imports: [module] }).compile();
  return ref.createNestApplication({ logger: false }).init();
}

describe.each(['sqlite', 'postgres'] as const)(
  'a Nest app of its own with PartnerPaymentsTypeOrmModule (%s)',
  (kind) => {
    const apps: INestApplicationContext[] = [];
    let location: string;
    let cleanup: () => void;
    beforeAll(async () => ({ location, cleanup } = await packageLocationFor(kind, 'consumer')));
    afterAll(async () => {
      for (const app of apps.reverse()) await app.close();
      cleanup?.();
    });

    it('runs its job on one replica at a time, beside its own entity', async () => {
      apps.push(await boot(consumerModule(kind, location)));
      apps.push(await boot(consumerModule(kind, location)));
      const [one, two] = apps.map((app) => app.get(NightlyJob));
      let release!: () => void;
      one.gate = new Promise((r) => (release = r));
      const first = one.run();
      while (!one.started) await new Promise((r) => setTimeout(r, 10));
      expect(await two.run()).toEqual({ ran: false, reason: 'locked' });
      release();
      expect(await first).toEqual({ ran: true, result: 1 });
      expect(await two.run()).toEqual({ ran: true, result: 2 });
    });

    it('takes its options from an async factory', async () => {
      const app = await boot(consumerModule(kind, location, { holder: 'from-config' }));
      apps.push(app);
      expect(await app.get(NightlyJob).run()).toEqual({ ran: true, result: 3 });
      const dataSource = app.get<DataSource>(getDataSourceToken(CONNECTION));
      expect(
        await dataSource.getRepository(PartnerJobLockEntity).findOneByOrFail({ name: 'nightly' }),
      ).toMatchObject({
        holder: 'from-config',
        runs: 3,
      });
    });

    it('refuses a bad option at boot, naming it', async () => {
      await expect(boot(consumerModule(kind, location, { sqliteLeaseMs: 10 }))).rejects.toThrow(
        /sqliteLeaseMs must be/,
      );
    });
  },
);
