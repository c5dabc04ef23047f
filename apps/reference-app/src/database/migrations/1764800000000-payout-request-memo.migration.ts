import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * payout_requests.memo: the `extra_info.memo` of POST /payouts, required by the partner on a WIRE
 * payout from an account at the ACT bank (evidence §6 [T1 REVISION-DOCS §4]), kept with the request
 * so the outbox re-drive re-sends the same body under the same Idempotency-Key. Nullable, no
 * default: rows stored before it had no memo and stay so. Plain ALTER TABLE rather than
 * queryRunner.addColumn, which rebuilds the whole table on SQLite (a copy of every request ever
 * made); a nullable column without a default is a change of the schema alone on both databases
 * (neither rewrites a row), whatever the table holds. PostgreSQL's ACCESS EXCLUSIVE lock for it is
 * brief: POST /payouts holds no transaction on payout_requests across a partner call.
 */
export class PayoutRequestMemo1764800000000 implements MigrationInterface {
  name = 'PayoutRequestMemo1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "payout_requests" ADD COLUMN "memo" text NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The memos of requests still pending are lost: their re-send would then lack it.
    await queryRunner.query('ALTER TABLE "payout_requests" DROP COLUMN "memo"');
  }
}
