import type { Provider, Type } from '@nestjs/common';

/**
 * Wiring point between PartnerPaymentsModule and the webhook pipeline (issue: Webhooks).
 * The module spreads these providers into its own and registers the controller class returned
 * by createPartnerWebhookController(path) unless the host app opted out.
 * Placeholder until the webhook pipeline lands: no providers, no controller.
 */
export const partnerWebhookProviders: Provider[] = [];
export const partnerWebhookExports: Array<string | symbol | Type> = [];

export function createPartnerWebhookController(_path: string): Type | null {
  return null;
}
