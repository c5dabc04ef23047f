import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { PARTNER_WEBHOOK_VERIFIED_BODY, type PartnerVerifiedRequest } from './partner-webhook.guard';
import { PartnerWebhookConfigurationError } from './webhook.errors';

/**
 * The raw bytes PartnerWebhookGuard verified for this request (spec 6.1.3), as a handler parameter:
 * `receive(@VerifiedPartnerBody() raw: Buffer)`. Answers 500 with the fix when the guard did not run
 * on the route (a missing `@UseGuards(PartnerWebhookGuard)` must not pass unverified bytes on).
 */
export const VerifiedPartnerBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Buffer => {
    const raw = context.switchToHttp().getRequest<PartnerVerifiedRequest>()[PARTNER_WEBHOOK_VERIFIED_BODY];
    if (!raw) {
      throw new PartnerWebhookConfigurationError(
        'Partner webhook: @VerifiedPartnerBody() needs @UseGuards(PartnerWebhookGuard) on the route',
      ).toHttpException();
    }
    return raw;
  },
);
