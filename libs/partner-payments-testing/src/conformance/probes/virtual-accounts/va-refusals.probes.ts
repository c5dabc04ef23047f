/**
 * The virtual-account create's refusals for a user not yet VERIFIED, in the order and shapes the
 * partner's runtime captures show (evidence §11 C6, N31-N33): the body first, then the status.
 */
import type { ConformanceProbe, Observation, ProbeSource } from '../../probe.types';
import type { Shape } from '../../shape.util';
import { detailMessages, detailSays, evidence, standardError } from '../probe-shapes.util';

const VERIFIED_MESSAGE =
  /^User must be in VERIFIED status to create a virtual account\. Current status: [A-Z_]+$/;

/** POST /v1/virtual-accounts for the run's (unverified) user with `body`; nothing is created. */
function refusal(
  id: string,
  behaviour: string,
  sources: ProbeSource[],
  body: Record<string, unknown>,
  shape: Shape,
  verify: (o: Observation) => string[],
  knownConflict?: string,
): ConformanceProbe {
  return {
    id: `virtual-accounts.${id}`,
    area: 'virtual-accounts',
    behaviour,
    sources,
    ...(knownConflict ? { knownConflict } : {}),
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/virtual-accounts',
      idempotencyKey: 'fresh',
      body: { user_id: (await ctx.user()).id, ...body },
    }),
    expect: { status: 400, shape },
    verify,
  };
}

export const VA_REFUSAL_PROBES: ConformanceProbe[] = [
  refusal(
    'type-enum',
    'POST /v1/virtual-accounts with a type outside US_BANK | MX_SPEI answers 400 { code, error, details: [{ message }] }, checked first',
    [evidence('§11 N31 [T3raw abuse/verification-skip-attempt/01]'), evidence('§11 N31 [T4 log §5]')],
    { type: 'individual' },
    detailMessages,
    detailSays(/^type is Invalid enum value\. Expected 'US_BANK' \| 'MX_SPEI'/),
  ),
  refusal(
    'bank-required',
    'POST /v1/virtual-accounts US_BANK without bank answers 400 "bank is bank is required for US_BANK virtual accounts", before the user\'s status is looked at',
    [evidence('§11 N32, C6 [T3raw abuse/verification-skip-attempt/11]'), evidence('§11 N32 [T4 log §6]')],
    { type: 'US_BANK' },
    detailMessages,
    detailSays(/^bank is .*required for US_BANK/),
  ),
  refusal(
    'bank-enum',
    'POST /v1/virtual-accounts with a bank that is no bank id answers 400 "bank is Invalid enum value. Expected …", before the user\'s status',
    [evidence('§11 N32, C6 [T4 log §7]')],
    { type: 'US_BANK', bank: 'ACT' },
    detailMessages,
    detailSays(/^bank is Invalid enum value\. Expected .*received 'ACT'/),
    "the partner's enum lists real, changing bank names; CONTRACT WINS (<bank_a>..<bank_d>, C7)",
  ),
  refusal(
    'unverified-user',
    'POST /v1/virtual-accounts MX_SPEI (no bank) for a user not yet VERIFIED answers 400 { statusCode, error, message, timestamp } naming the current status',
    [evidence('§11 N33 [T3raw abuse/verification-skip-attempt/12]'), evidence('§11 N33 [T4 log §8]')],
    { type: 'MX_SPEI' },
    standardError,
    (o) =>
      VERIFIED_MESSAGE.test(String((o.body as { message?: unknown }).message))
        ? []
        : ['body.message: expected "User must be in VERIFIED status … Current status: <STATUS>"'],
  ),
];
