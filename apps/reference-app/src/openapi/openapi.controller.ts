import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../common/access.guard';
import { OpenApiDocument } from './openapi-document.service';

/**
 * GET /openapi.json, for operators: the document lists every route and its errors, which is a map
 * for whoever probes the app, so it is behind the operator token like the other operator routes.
 */
@ApiTags('operations')
@Access('operator')
@Controller()
export class OpenApiController {
  constructor(private readonly document: OpenApiDocument) {}

  @Get('openapi.json')
  @ApiOperation({ summary: "This document: the app's OpenAPI 3.1 description" })
  @ApiOkResponse({ schema: { type: 'object' }, description: 'an OpenAPI 3.1 document, this one' })
  openapi(): object {
    return this.document.get();
  }
}
