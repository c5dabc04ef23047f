import type { Response, Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { sendZodValidation, type ZodIssue } from '../../server/http-errors.util';
import { requestState, type SandboxContext } from '../../server/sandbox-context.util';

const ACCOUNT_TYPES = ['WIRE', 'SWIFT', 'WALLET', 'ACH', 'INSTANT_PAY'];

/**
 * Past its validation, a route whose success the captures do not show: the sandbox does not make
 * one up (no quote, no payout), it answers 422 saying so. Stricter than the partner, never laxer.
 */
function sendNotSimulated(res: Response, route: string): void {
  res.status(422).json({
    code: 'unprocessable',
    message: `${route} past its validation is not simulated: the partner's answer is not recorded`,
  });
}

const body = (res: Response): Record<string, unknown> => {
  const b = requestState(res).body;
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
};

/**
 * Two routes the contract does not list, as the partner's runtime captures show them (evidence §11
 * N35, N36 [T3raw abuse/verification-skip-attempt/02, 03]): a crypto payout and a quotation.
 */
export function registerUnlistedRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  // N35: the Zod shape, path as a dotted string; `network` has its own message.
  router.post('/v1/payouts', ...auth, (_req, res) => {
    const b = body(res);
    const issues: ZodIssue[] = [];
    const required: [string, string][] = [
      ['network', 'Network is required'],
      ['txHash', 'Required'],
      ['quote_id', 'Required'],
    ];
    for (const [path, message] of required)
      if (b[path] === undefined) issues.push({ path, message, code: 'invalid_type' });
      else if (typeof b[path] !== 'string')
        issues.push({ path, message: `Expected string, received ${typeof b[path]}`, code: 'invalid_type' });
    if (issues.length) return sendZodValidation(res, issues);
    sendNotSimulated(res, 'POST /v1/payouts');
  });

  // N36: `{ code, message, details: [{ code, message, path: [..] }] }`, path as an array here.
  router.post('/v1/quotations', ...auth, (_req, res) => {
    const b = body(res);
    if (b.recipient_id === undefined && !ACCOUNT_TYPES.includes(b.account_type as string)) {
      return void res.status(400).json({
        code: 'validation_error',
        message: 'Invalid request body',
        details: [
          {
            code: 'custom',
            message: `Either recipient_id or account_type (${ACCOUNT_TYPES.slice(0, -1).join(', ')}, or INSTANT_PAY) is required`,
            path: ['recipient_id'],
          },
        ],
      });
    }
    sendNotSimulated(res, 'POST /v1/quotations');
  });
}
