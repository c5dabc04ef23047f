import {
  type CanActivate,
  Controller,
  HttpCode,
  Inject,
  Injectable,
  NotFoundException,
  Post,
  type Type,
  UseGuards,
} from '@nestjs/common';
import { PartnerWebhookGuard } from './partner-webhook.guard';
import { PartnerWebhookIngestService } from './partner-webhook-ingest.service';
import { VerifiedPartnerBody } from './verified-partner-body.decorator';
import { PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import {
  DEFAULT_PARTNER_WEBHOOK_PATH,
  normalisePath,
  type PartnerWebhookConfig,
} from './webhook-options.util';
import { PartnerWebhookError } from './webhook.errors';

/** The 2xx body of the ready-made route. */
export interface PartnerWebhookAck {
  received: true;
  status: 'accepted' | 'duplicate' | 'unknown';
  eventId: string;
}

/** Static marker on controllers made by createPartnerWebhookController, read by the boot check. */
export const PARTNER_WEBHOOK_CONTROLLER_PATH = Symbol('PARTNER_WEBHOOK_CONTROLLER_PATH');

/** options.webhooks.controller === false turns the statically registered route into a 404. */
@Injectable()
export class PartnerWebhookRouteEnabledGuard implements CanActivate {
  constructor(@Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig) {}

  canActivate(): boolean {
    if (!this.config.controllerEnabled) throw new NotFoundException();
    return true;
  }
}

/**
 * The ready-made receiving route: POST `path` (default '/webhooks/partner', under any global
 * prefix). The path is fixed when the module is declared (a route is static), which is why the
 * module takes it from its extras, not from (possibly async) options.
 * Answers 200 { received, status, eventId } once the event is recorded; handlers run after (spec
 * 6.1.4: persist, acknowledge, process). Unknown event types and duplicates are 200 too (spec 6.1.5).
 */
export function createPartnerWebhookController(path: string = DEFAULT_PARTNER_WEBHOOK_PATH): Type {
  const route = normalisePath(path);

  @Controller(route)
  class PartnerWebhookController {
    static readonly [PARTNER_WEBHOOK_CONTROLLER_PATH] = route;

    constructor(@Inject(PartnerWebhookIngestService) private readonly ingest: PartnerWebhookIngestService) {}

    @Post()
    @HttpCode(200)
    @UseGuards(PartnerWebhookRouteEnabledGuard, PartnerWebhookGuard)
    async receive(@VerifiedPartnerBody() raw: Buffer): Promise<PartnerWebhookAck> {
      try {
        // The guard checked size and signature: accept() only parses, records and answers.
        const result = await this.ingest.accept(raw);
        return { received: true, status: result.status, eventId: result.eventId };
      } catch (error) {
        if (error instanceof PartnerWebhookError) throw error.toHttpException();
        throw error;
      }
    }
  }
  return PartnerWebhookController;
}
