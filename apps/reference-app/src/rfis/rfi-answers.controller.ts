import { Body, Controller, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { RfiItem } from '@partner-payments/nestjs/models';
import type { Request, Response } from 'express';
import { Access } from '../common/access.guard';
import { ApiPartnerFailureResponses } from '../common/api-responses.decorator';
import { ErrorBodyDto } from '../common/error-body.dto';
import {
  RfiAnsweredItemsDto,
  RfiDocumentLinkDto,
  RfiItemErrorsBodyDto,
  RfiUploadedItemDto,
} from './rfi-answers.dto';
import { RfiAnswering } from './rfi-answering.service';
import { MAX_UPLOAD_REQUEST_BYTES, RfiUpload } from './rfi-upload.service';

const RFI_ID = { name: 'rfi_id', schema: { type: 'string', format: 'uuid' } } as const;
const ITEM_ID = { name: 'item_id', schema: { type: 'string', format: 'uuid' } } as const;
const CLOSED = {
  type: ErrorBodyDto,
  description:
    "RfiClosed: the partner's 409, the RFI is resolved or not_resolved and refuses answers (spec 3.2)",
};

/** Answers to an RFI, sent to the partner: operator-only (common/access.guard.ts). */
@ApiTags('rfis')
@Access('operator')
@Controller('rfis/:rfi_id/items')
export class RfiAnswersController {
  constructor(
    private readonly answering: RfiAnswering,
    private readonly uploads: RfiUpload,
  ) {}

  @Patch()
  @ApiOperation({
    summary: 'Answers items of an RFI in one call (spec 4.3)',
    description:
      "Each answer is checked against its item's answer_type and answer_spec first: a bad one is named (items[i].answer_value) and nothing is sent. The partner's per-item refusals come back beside their items.",
  })
  @ApiParam(RFI_ID)
  @ApiBody({
    schema: {
      type: 'object',
      required: ['items'],
      additionalProperties: false,
      properties: {
        items: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['item_id', 'answer_value'],
            properties: {
              item_id: { type: 'string', format: 'uuid' },
              answer_value: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
            },
          },
        },
      },
    },
  })
  @ApiOkResponse({ type: RfiAnsweredItemsDto, description: "the partner's items as answered" })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'a bad answer or field, each named; nothing was sent',
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'no such RFI at the partner (or withdrawn)' })
  @ApiConflictResponse(CLOSED)
  @ApiUnprocessableEntityResponse({
    type: RfiItemErrorsBodyDto,
    description: "the partner's per-item errors; nothing was saved",
  })
  @ApiPartnerFailureResponses()
  answer(
    @Param('rfi_id') rfiId: string,
    @Body() body: Record<string, unknown>,
  ): Promise<{ items: RfiItem[] }> {
    return this.answering.answer(rfiId, body);
  }

  @Post(':item_id/documents')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Uploads one file to a document item, streamed to the partner (spec 4.2)',
    description: `multipart/form-data, one file in the field files, Content-Length required, at most ${MAX_UPLOAD_REQUEST_BYTES} bytes. Checked before it is sent: the item, the type against its mime_types and the file's bytes, its max_files. The app keeps no copy. Each upload adds a file.`,
  })
  @ApiParam(RFI_ID)
  @ApiParam(ITEM_ID)
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['files'],
      properties: { files: { type: 'string', format: 'binary' } },
    },
  })
  @ApiCreatedResponse({ type: RfiUploadedItemDto, description: "the partner's item with its documents" })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'a bad id, file or field, each named; nothing was stored',
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'no such RFI or item' })
  @ApiConflictResponse(CLOSED)
  @ApiResponse({ status: 411, type: ErrorBodyDto, description: 'no Content-Length' })
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDto, description: 'over 30 MB (spec 8)' })
  @ApiResponse({ status: 415, type: ErrorBodyDto, description: 'not multipart/form-data' })
  @ApiPartnerFailureResponses()
  upload(
    @Param('rfi_id') rfiId: string,
    @Param('item_id') itemId: string,
    @Req() req: Request,
  ): Promise<{ item: RfiItem }> {
    return this.uploads.upload(rfiId, itemId, req);
  }

  @Get(':item_id/documents/:document_id/link')
  @ApiOperation({
    summary: "A document's download link, read through (evidence §7)",
    description:
      'A presigned link that lasts minutes and works without credentials: not stored, not logged, not cached.',
  })
  @ApiParam(RFI_ID)
  @ApiParam(ITEM_ID)
  @ApiParam({ name: 'document_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: RfiDocumentLinkDto, description: "the partner's link (minutes; do not store it)" })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'an id is not a UUID' })
  @ApiPartnerFailureResponses()
  async link(
    @Param('rfi_id') rfiId: string,
    @Param('item_id') itemId: string,
    @Param('document_id') documentId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RfiDocumentLinkDto> {
    const link = await this.answering.documentLink(rfiId, itemId, documentId);
    res.setHeader('Cache-Control', 'no-store');
    return { download_url: link.downloadUrl, expires_at: link.expiresAt };
  }
}
