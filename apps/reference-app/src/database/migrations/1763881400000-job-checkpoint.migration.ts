import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** job_locks.checkpoint: where the deposit reconciliation stopped reading the partner's list. */
export class JobCheckpoint1763881400000 implements MigrationInterface {
  name = 'JobCheckpoint1763881400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'job_locks',
      new TableColumn({ name: 'checkpoint', type: 'text', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('job_locks', 'checkpoint');
  }
}
