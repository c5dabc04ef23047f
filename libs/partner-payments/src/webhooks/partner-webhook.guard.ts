import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { closeConnectionAfterAnswer, readPartnerRawBody, type PartnerRawBodyRequest } from './raw-body.util';
import { PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import { type PartnerWebhookConfig } from './webhook-options.util';
import { PartnerWebhookBodyTooLargeError, PartnerWebhookError } from './webhook.errors';
import { refuseWebhook, verifyWebhookSignature } from './webhook-verification.util';

/** Where the guard leaves the verified raw bytes on the request; read by @VerifiedPartnerBody(). */
export const PARTNER_WEBHOOK_VERIFIED_BODY = Symbol('PARTNER_WEBHOOK_VERIFIED_BODY');

export type PartnerVerifiedRequest = PartnerRawBodyRequest & { [PARTNER_WEBHOOK_VERIFIED_BODY]?: Buffer };

/**
 * Verifies x-signature-sha256 against the raw request bytes (spec 6.1.3) before any handler runs,
 * with the signature verifier directly (no webhook service involved).
 * Answers: 413 beyond webhooks.maxBodyBytes, closing the connection without reading the rest; 401 with { reason } for a missing, non-hex, odd-length,
 * wrong-length or wrong signature (never 500); 500 with the fix when the raw body is unavailable
 * (the app was not created with NestFactory.create(AppModule, { rawBody: true })).
 * Usable on your own route: `@UseGuards(PartnerWebhookGuard)`, then `@VerifiedPartnerBody() raw: Buffer`.
 */
@Injectable()
export class PartnerWebhookGuard implements CanActivate {
  constructor(@Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<PartnerVerifiedRequest>();
    try {
      // A refusal while reading (413, no raw body) is reported here; the verifier reports its own.
      const raw = await readPartnerRawBody(req, this.config.maxBodyBytes).catch((error: unknown) => {
        throw error instanceof Error ? refuseWebhook(this.config, error) : error;
      });
      verifyWebhookSignature(this.config, raw, req.headers);
      req[PARTNER_WEBHOOK_VERIFIED_BODY] = raw;
      return true;
    } catch (error) {
      if (error instanceof PartnerWebhookError) {
        if (error instanceof PartnerWebhookBodyTooLargeError)
          closeConnectionAfterAnswer(req, context.switchToHttp().getResponse());
        if (error.status >= 500) this.config.logger.error(error.message);
        throw error.toHttpException();
      }
      throw error;
    }
  }
}
