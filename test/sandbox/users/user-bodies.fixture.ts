/** Raw user bodies and the partner's validation answer, for the users suites of the sandbox. */
import { business, individual } from '../sandbox.fixture';

/** Raw bodies: these tests also send what the typed inputs would not let through. */
export const ind = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...individual(),
  ...extra,
});
export const biz = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...business(),
  ...extra,
});

/** evidence §2 shape Z. */
export const zod = (details: unknown[]) => ({ error: 'Invalid request data', details });
