import { Injectable, type INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument } from './openapi-document.util';

/**
 * Holds the app's OpenAPI document. The scan needs the application itself (its modules and routes),
 * which no provider can inject: startApp attaches it once created, and the document is built at the
 * first request and kept (the routes do not change while the app runs).
 */
@Injectable()
export class OpenApiDocument {
  private app: INestApplication | null = null;
  private document: OpenAPIObject | null = null;

  attach(app: INestApplication): void {
    this.app = app;
    this.document = null;
  }

  get(): OpenAPIObject {
    if (!this.app) throw new Error('OpenApiDocument: no application attached (startApp attaches it)');
    this.document ??= buildOpenApiDocument(this.app);
    return this.document;
  }
}
