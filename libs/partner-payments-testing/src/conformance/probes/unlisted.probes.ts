/** Two routes the contract does not list, refused as the partner's runtime captures show (evidence §11 N35, N36). */
import type { ConformanceProbe } from '../probe.types';
import { t } from '../shape.util';
import { evidence, namesPath, zodError } from './probe-shapes.util';

export const UNLISTED_ROUTE_PROBES: ConformanceProbe[] = [
  {
    id: 'payouts.crypto.required-fields',
    area: 'payouts',
    behaviour:
      'POST /v1/payouts (a crypto payout) with only user_id, recipient_id, amount and currency answers 400 in the Zod shape naming network, txHash and quote_id',
    sources: [evidence('§11 N35 [T3raw abuse/verification-skip-attempt/02]')],
    writes: true,
    needs: ['user', 'recipient'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/payouts',
      idempotencyKey: 'fresh',
      body: {
        user_id: (await ctx.user()).id,
        recipient_id: (await ctx.recipient()).id,
        amount: 1,
        currency: 'USD',
      },
    }),
    expect: { status: 400, shape: zodError },
    verify: (o) => ['network', 'txHash', 'quote_id'].flatMap((path) => namesPath(path)(o)),
    sandbox:
      'past its validation the sandbox answers 422 unprocessable: the partner’s success is not recorded',
  },
  {
    id: 'payouts.quotation.recipient-or-account-type',
    area: 'payouts',
    behaviour:
      'POST /v1/quotations without recipient_id or account_type answers 400 { code, message, details: [{ code: custom, message, path: [recipient_id] }] }, path an array',
    sources: [evidence('§11 N36 [T3raw abuse/verification-skip-attempt/03]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/quotations',
      idempotencyKey: 'fresh',
      body: {
        user_id: (await ctx.user()).id,
        source_currency: 'USD',
        destination_currency: 'MXN',
        amount: 10000,
        amount_type: 'source',
      },
    }),
    expect: {
      status: 400,
      shape: t.object({
        code: t.enum('validation_error'),
        message: t.string,
        details: t.array(t.object({ code: t.string, message: t.string, path: t.array(t.string) })),
      }),
    },
    verify: (o) =>
      JSON.stringify((o.body as { details?: { path?: unknown }[] }).details?.[0]?.path) === '["recipient_id"]'
        ? []
        : ['body.details[0].path: expected ["recipient_id"]'],
    sandbox:
      'past its validation the sandbox answers 422 unprocessable: the partner’s success is not recorded',
  },
];
