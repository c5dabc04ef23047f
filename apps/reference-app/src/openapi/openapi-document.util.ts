import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type OperationObject,
  type SchemaObject,
} from '@nestjs/swagger';
import {
  CALLER_SECURITY_SCHEME,
  OPERATOR_SECURITY_SCHEME,
  UNAUTHORIZED_DESCRIPTIONS,
} from '../common/api-responses.decorator';
import { describeWebhookRoute } from './webhook-route.util';

/** This API's own version: raise it with a change its callers must follow. */
export const APP_API_VERSION = '0.1.0';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The app's OpenAPI 3.1 document, from its controllers' decorators (@nestjs/swagger converts
 * `nullable` to 3.1's type lists), the receiving route described from the app's side, and the
 * access classes of common/access.guard.ts as security schemes. No server URL (`servers` empty: the
 * origin it is read from): the document is the same wherever the app listens, so the checked-in
 * copy can be compared with what it serves.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Partner payments reference app')
    .setDescription(
      'The reference app of @partner-payments/nestjs: payouts, read-throughs of the partner, the operator jobs, health and metrics. Caller routes take X-Api-Key, operator routes the operator token; GET /health/* and the webhook route take neither.',
    )
    .setVersion(APP_API_VERSION)
    .addTag('payouts', "the app's own API for its clients (caller)")
    .addTag('virtual accounts', "read-throughs of the partner's virtual accounts (caller)")
    .addTag('payouts (operator)', 'the outbox re-drive of POST /payouts')
    .addTag(
      'reconciliation',
      'payout and deposit reconciliation passes, run now (the cron jobs, under their locks)',
    )
    .addTag(
      'rfis',
      "the partner's requests for information: open RFIs, their items, answers and files (operator)",
    )
    .addTag('versioning', 'the partner API version pin (spec 9.3)')
    .addTag('inbox', 'the webhook inbox: counts, dead entries, redelivery, pruning')
    .addTag('webhooks', "the partner's deliveries, signed (spec 6.1)")
    .addTag('health', 'liveness and readiness for orchestrators (no credential)')
    .addTag('operations', 'metrics and this document')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'OPERATOR_TOKEN, for the operator routes' },
      OPERATOR_SECURITY_SCHEME,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Api-Key',
        description: 'one of APP_API_KEYS, for the caller routes',
      },
      CALLER_SECURITY_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  describeWebhookRoute(document);
  operatorByDefault(document);
  closedBodies(document);
  return document;
}

function eachOperation(document: OpenAPIObject, visit: (operation: OperationObject) => void): void {
  for (const item of Object.values(document.paths))
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) visit(operation);
    }
}

/**
 * AccessGuard treats a route with no @Access mark as operator-only; its operation says so too,
 * with the same 401, so a route added without a mark is documented as what it is.
 */
function operatorByDefault(document: OpenAPIObject): void {
  eachOperation(document, (operation) => {
    if (operation.security) return;
    operation.security = [{ [OPERATOR_SECURITY_SCHEME]: [] }];
    operation.responses['401'] = {
      description: UNAUTHORIZED_DESCRIPTIONS.operator,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } },
    };
  });
}

/**
 * The app's own bodies refuse unknown keys (the ValidationPipe's forbidNonWhitelisted; POST
 * /inbox/dead/retry checks its own), nested objects included: their schemas say so.
 */
function closedBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const close = (schema: unknown): void => {
    const ref = (schema as { $ref?: string } | undefined)?.$ref;
    const target = ref
      ? (schemas[ref.replace('#/components/schemas/', '')] as SchemaObject | undefined)
      : undefined;
    if (!target || target.additionalProperties === false) return;
    target.additionalProperties = false;
    for (const property of Object.values(target.properties ?? {})) close(property);
  };
  eachOperation(document, (operation) => {
    const body = operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
    close(body?.content?.['application/json']?.schema);
  });
}
