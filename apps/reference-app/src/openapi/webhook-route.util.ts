import type { OpenAPIObject } from '@nestjs/swagger';
import { PARTNER_SIGNATURE_HEADER } from '@partner-payments/nestjs/webhooks';

/** Where PartnerPaymentsModule mounts its ready-made receiving route in this app (its default). */
export const WEBHOOK_ROUTE = '/webhooks/partner';

const ack = {
  type: 'object',
  properties: {
    received: { type: 'boolean', enum: [true] },
    status: { type: 'string', enum: ['accepted', 'duplicate', 'unknown'] },
    eventId: { type: 'string', description: 'data.event_id' },
  },
  required: ['received', 'status', 'eventId'],
};

const refusal = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    message: { type: 'string' },
  },
  required: ['statusCode', 'code', 'message'],
};

const json = (schema: object) => ({ 'application/json': { schema } });

/**
 * The receiving route is the library's controller, which carries no OpenAPI decorators; this app
 * describes it as it mounts it: authenticated by the partner's signature (spec 6.1.3) instead of
 * the app's credentials, answered 2xx once recorded, for unknown events and duplicates too (spec
 * 6.1.4, 6.1.5). Replaces the operation the scan found, so its path and method stay Nest's.
 */
export function describeWebhookRoute(document: OpenAPIObject): void {
  const operation = document.paths[WEBHOOK_ROUTE]?.post;
  if (!operation)
    throw new Error(`OpenAPI: the scan found no POST ${WEBHOOK_ROUTE}; is PartnerPaymentsModule mounted?`);
  document.paths[WEBHOOK_ROUTE]!.post = {
    operationId: operation.operationId,
    tags: ['webhooks'],
    summary: "The partner's webhook deliveries (PartnerPaymentsModule's receiving route)",
    description:
      'The raw bytes are verified against the signature before they are parsed, then recorded in the inbox and answered; handlers run after. The partner does not retry a delivery.',
    security: [{}],
    parameters: [
      {
        name: PARTNER_SIGNATURE_HEADER,
        in: 'header',
        required: true,
        description: 'hex HMAC-SHA256 of the raw body, keyed with PARTNER_WEBHOOK_SECRET (spec 6.1.3)',
        schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
      },
    ],
    requestBody: {
      required: true,
      content: json({
        type: 'object',
        description: 'flat { event, data } or V2 { event, data: { event_id, event_type, data } } (spec 6.2)',
        properties: {
          event: { type: 'string', example: 'payout.completed' },
          data: { type: 'object', properties: { event_id: { type: 'string' } }, additionalProperties: true },
        },
        required: ['event', 'data'],
      }),
    },
    responses: {
      '200': {
        description: 'recorded (accepted), already recorded (duplicate) or an unknown event type',
        content: json(ack),
      },
      '400': { description: 'not valid UTF-8, not JSON, or no event', content: json(refusal) },
      '401': {
        description: 'signature missing, malformed or wrong (code invalid_signature)',
        content: json(refusal),
      },
      '413': { description: 'body over 1 MB', content: json(refusal) },
      '500': {
        description:
          "not recorded (code inbox_unavailable: the inbox could not store it), so not acknowledged: it shows in the partner's delivery log",
        content: json(refusal),
      },
    },
  };
}
