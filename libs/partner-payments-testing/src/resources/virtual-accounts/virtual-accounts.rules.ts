import type { Response } from 'express';
import { isUuid } from '../../server/ids.util';
import { validateMetadata } from '../metadata.rules';

/**
 * The contract's four bank placeholders (spec 2.4). The partner's runtime enum names real banks
 * that change over time (evidence §11 C7): CONTRACT WINS, so the enum message lists these.
 */
export const KNOWN_BANKS: readonly string[] = ['bank_a', 'bank_b', 'bank_c', 'bank_d'];
/** evidence §11 N31 [T3raw verification-skip-attempt]: the create's `type` enum. */
export const VIRTUAL_ACCOUNT_TYPES: readonly string[] = ['US_BANK', 'MX_SPEI'];

const CRYPTO_DESTINATION_FIELDS = ['currency', 'network', 'address'] as const;
const enumList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(' | ');
const invalidEnum = (field: string, values: readonly string[], received: unknown) =>
  `${field} is Invalid enum value. Expected ${enumList(values)}, received '${String(received)}'`;

/**
 * The create body's schema problems, each worded "<field> is <problem>" as the partner words them
 * (evidence §11 N31, N32 [T3raw verification-skip-attempt 01, 11; T4 log §5-§7]). `type` is the
 * union's discriminator: while it is missing or unknown nothing else is reported ("type is
 * Required" [T3raw bola-cross-tenant-stub 06]). A US_BANK account needs a `bank` of the enum; an
 * MX_SPEI one without a bank passes on to the user's status check (N33).
 */
export function virtualAccountBodyProblems(b: Record<string, unknown>): string[] {
  if (b.type === undefined) return ['type is Required'];
  if (!VIRTUAL_ACCOUNT_TYPES.includes(b.type as string))
    return [invalidEnum('type', VIRTUAL_ACCOUNT_TYPES, b.type)];
  const problems: string[] = [];
  if (b.user_id === undefined) problems.push('user_id is Required');
  else if (!isUuid(b.user_id)) problems.push('user_id is Invalid uuid');
  // The partner repeats "bank is" here: its message already starts with the field (N32).
  if (b.type === 'US_BANK' && b.bank === undefined)
    problems.push('bank is bank is required for US_BANK virtual accounts');
  else if (b.bank !== undefined && !KNOWN_BANKS.includes(b.bank as string))
    problems.push(invalidEnum('bank', KNOWN_BANKS, b.bank));
  // evidence §5 [D create-a-virtual-account]: `mode` is the enum fiat | crypto, lowercase.
  if (b.mode !== undefined && b.mode !== 'fiat' && b.mode !== 'crypto')
    problems.push(invalidEnum('mode', ['fiat', 'crypto'], b.mode));
  if (b.destination !== undefined && (typeof b.destination !== 'object' || b.destination === null)) {
    problems.push('destination is Expected object');
  } else if (b.mode === 'crypto') {
    // evidence §5 [D create-a-virtual-account]: a crypto account names where its funds go,
    // destination {currency, network, address}. The values' lists are not recorded.
    const destination = (b.destination ?? {}) as Record<string, unknown>;
    for (const key of CRYPTO_DESTINATION_FIELDS)
      if (typeof destination[key] !== 'string' || destination[key] === '')
        problems.push(`destination.${key} is required for crypto virtual accounts`);
  }
  problems.push(...validateMetadata(b.metadata).map((e) => `${e.field} is ${e.message}`));
  return problems;
}

/** evidence §11 N31: `{code, error:"Invalid data", details:[{message}]}`, no `path` in a detail. */
export function sendVirtualAccountInvalid(res: Response, problems: string[]): void {
  res.status(400).json({
    code: 'validation_error',
    error: 'Invalid data',
    details: problems.map((message) => ({ message })),
  });
}

/**
 * evidence §11 N13, N33: the Nest-style standard error `{statusCode, error, message, timestamp}`
 * (spec 7.1), the answer for a user not yet VERIFIED and for an unknown account id.
 */
export function sendStandardError(res: Response, status: 400 | 404, message: string): void {
  const error = status === 400 ? 'Bad Request' : 'Not Found';
  res.status(status).json({ statusCode: status, error, message, timestamp: new Date().toISOString() });
}
