import { Module } from '@nestjs/common';
import { OpenApiDocument } from './openapi-document.service';
import { OpenApiController } from './openapi.controller';

/** The app's OpenAPI document and GET /openapi.json (operator). `npm run openapi` writes it to a file. */
@Module({
  controllers: [OpenApiController],
  providers: [OpenApiDocument],
  exports: [OpenApiDocument],
})
export class OpenApiModule {}
