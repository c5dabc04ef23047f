import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app.config';
import { ConfigValidationError } from '../config/app.config';
import { generateInboxKeyEntry, InboxKeyRing, parseInboxKeys } from './inbox-key-ring.util';

/**
 * The keys that seal inbox bodies. INBOX_ENCRYPTION_KEYS when set (required with a real partner:
 * the configuration refuses to load without it). Unset, the app runs the embedded-sandbox demo
 * (`npm start` with nothing configured), where nothing real is stored: it keeps its key in a file
 * beside its SQLite file (mode 0600), made at the first start and reused at the next, so what the
 * demo stored stays readable across restarts. One log line says which.
 */
export function resolveInboxKeyRing(config: AppConfig, logger = new Logger('InboxKeys')): InboxKeyRing {
  if (config.inbox.keyRing) return config.inbox.keyRing;
  if (config.partner.baseUrl !== null) {
    // loadAppConfig refuses this already; kept so the rule holds whatever builds the config.
    throw new ConfigValidationError([
      { variable: 'INBOX_ENCRYPTION_KEYS', message: 'is required when PARTNER_BASE_URL is set' },
    ]);
  }
  const db = config.database;
  if (db.kind === 'sqlite' && db.path === ':memory:') {
    logger.log(
      'INBOX_ENCRYPTION_KEYS is not set: the embedded-sandbox demo seals inbox bodies with a key made for this process (in-memory database)',
    );
    return new InboxKeyRing(parseInboxKeys(generateInboxKeyEntry('demo')));
  }
  const file =
    db.kind === 'sqlite' ? `${db.path}.inbox-key` : resolve('data', 'embedded-sandbox-postgres.inbox-key');
  const { entry, created } = readOrCreate(file);
  let ring: InboxKeyRing;
  try {
    ring = new InboxKeyRing(parseInboxKeys(entry));
  } catch (error) {
    throw new ConfigValidationError([
      {
        variable: 'INBOX_ENCRYPTION_KEYS',
        message: `is not set and the demo key file ${file} is unusable (${(error as Error).message}); set the variable or delete the file`,
      },
    ]);
  }
  logger.log(
    `INBOX_ENCRYPTION_KEYS is not set: the embedded-sandbox demo seals inbox bodies with the key in ${file} (${created ? 'created now, mode 0600' : 'reused'}); set INBOX_ENCRYPTION_KEYS for real data`,
  );
  return ring;
}

function readOrCreate(file: string): { entry: string; created: boolean } {
  mkdirSync(dirname(file), { recursive: true });
  try {
    // 'wx': never overwrite a key another start made (it sealed bodies that need it).
    writeFileSync(file, `${generateInboxKeyEntry('demo')}\n`, { mode: 0o600, flag: 'wx' });
    return { entry: readFileSync(file, 'utf8').trim(), created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { entry: readFileSync(file, 'utf8').trim(), created: false };
  }
}
