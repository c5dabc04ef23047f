import { createHash } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const DIGEST = /^acct:[0-9a-f]{40}$/;
const EMBEDDED = /^(embedded:\d+:)(.*)$/s;

/**
 * api_version_pins.account held the account's identifier in plain text: PARTNER_CLIENT_ID, half of
 * the POST /auth pair (spec 4.1), when PARTNER_CLIENT_UUID is unset. Each row's key is replaced in
 * place by its digest, the rule of partnerVersionPinKey (@partner-payments/typeorm; copied here: a
 * migration must keep doing what it did), which the app computes from the same configuration, so an existing
 * database keeps its pin (and a refused target) across the upgrade. `embedded:<port>:` keys keep
 * their prefix. One row per account: a handful of rows. Not reversible: the digest does not give
 * the identifier back.
 */
export class PinAccountDigest1765000000000 implements MigrationInterface {
  name = 'PinAccountDigest1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const pg = queryRunner.connection.options.type === 'postgres';
    const rows: Array<{ account: string }> = await queryRunner.query('SELECT account FROM api_version_pins');
    for (const { account } of rows) {
      const embedded = EMBEDDED.exec(account);
      const [prefix, identifier] = embedded ? [embedded[1], embedded[2]] : ['', account];
      if (DIGEST.test(identifier)) continue;
      const digest = createHash('sha256')
        .update(`partner-payments/api-version-pin\u0000${identifier}`)
        .digest('hex');
      await queryRunner.query(
        `UPDATE api_version_pins SET account = ${pg ? '$1' : '?'} WHERE account = ${pg ? '$2' : '?'}`,
        [`${prefix}acct:${digest.slice(0, 40)}`, account],
      );
    }
  }

  async down(): Promise<void> {
    // The identifiers are gone; the older version creates its row again and pins at its start.
  }
}
