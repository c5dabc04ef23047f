import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { generateInboxKeyEntry, parseInboxKeys } from './inbox-key-ring.util';

/** What readOrCreateInboxKeyFile found: the keys (for `inbox.sealingKeys`) and whether it made the file. */
export interface PartnerInboxKeyFile {
  sealingKeys: string;
  created: boolean;
}

/**
 * Sealing keys for development, kept in `file`: made at the first start (one `id:base64` key, the
 * file mode 0600, its folder created) and reused at the next, so what a development database
 * stored stays readable across restarts. Never for real partner data: give `inbox.sealingKeys`
 * from your secret store there. Throws when the file exists but holds no valid key (the message
 * names the file, never its content).
 */
export function readOrCreateInboxKeyFile(file: string, id = 'dev'): PartnerInboxKeyFile {
  mkdirSync(dirname(file), { recursive: true });
  let created = true;
  try {
    // 'wx': never overwrite a key another start made (it sealed bodies that need it).
    writeFileSync(file, `${generateInboxKeyEntry(id)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
  }
  const sealingKeys = readFileSync(file, 'utf8').trim();
  try {
    parseInboxKeys(sealingKeys);
  } catch (error) {
    throw new Error(`key file ${file} is unusable (${(error as Error).message})`);
  }
  return { sealingKeys, created };
}
