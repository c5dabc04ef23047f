import { PassThrough } from 'node:stream';
import {
  BadRequestException,
  HttpException,
  Injectable,
  NotFoundException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { PartnerRfisService } from '@partner-payments/nestjs';
import type { RfiItem } from '@partner-payments/nestjs/models';
import busboy from 'busboy';
import { UPLOAD_BODY_LIMIT_BYTES } from '../common/upload-routes.util';
import type { Request } from 'express';
import { RfiAnswering } from './rfi-answering.service';
import { RfiProjection } from './rfi-projection.service';
import { requireUuid } from './rfi-query.rules';
import { RfiSync } from './rfi-sync.service';

/**
 * spec 8: 30 MB per file (decimal, the library's MAX_UPLOAD_FILE_BYTES). The whole request may not
 * be larger, so no file in it can pass the limit, and it is refused from its Content-Length before
 * a byte is read or sent.
 */
export const MAX_UPLOAD_REQUEST_BYTES = UPLOAD_BODY_LIMIT_BYTES;

/**
 * POST /rfis/{rfi_id}/items/{item_id}/documents: one file (field `files`, spec 4.2) streamed from
 * the operator's request to the partner's: the app keeps no copy, only the metadata the partner
 * answers. One file per request because a multipart body is read in order: the second file's
 * type and size are known only after the first one's bytes, and every rule must be checked before
 * any is sent. Uploads add to the item's files (spec 4.2 rule 1), so N requests give N files.
 * Checked before the partner is called: the ids, the Content-Length (present, at most 30 MB), the
 * item (a document item of this RFI), and by the library on the file's first bytes its type
 * against the item's mime_types and what the bytes are, and the item's max_files with the files it
 * already holds. The partner's request is ended only once the operator's body has ended cleanly:
 * a second file or a broken body aborts it, and the partner stores nothing (spec 4.2 rule 2).
 */
@Injectable()
export class RfiUpload {
  constructor(
    private readonly rfis: PartnerRfisService,
    private readonly answering: RfiAnswering,
    private readonly projection: RfiProjection,
    private readonly sync: RfiSync,
  ) {}

  async upload(rfiIdParam: string, itemIdParam: string, req: Request): Promise<{ item: RfiItem }> {
    const rfiId = requireUuid(rfiIdParam, 'rfi_id');
    const itemId = requireUuid(itemIdParam, 'item_id');
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? ''))
      throw new UnsupportedMediaTypeException(
        'this route takes multipart/form-data with one file in the field files',
      );
    const length = Number(req.headers['content-length']);
    if (req.headers['content-length'] === undefined || !Number.isSafeInteger(length))
      throw new HttpException(
        {
          statusCode: 411,
          error: 'Length Required',
          message: 'Content-Length is required: the upload size is checked before it is sent',
        },
        411,
      );
    if (length > MAX_UPLOAD_REQUEST_BYTES)
      throw new PayloadTooLargeException(
        `files must be at most ${MAX_UPLOAD_REQUEST_BYTES} bytes (spec 8: 30 MB per file)`,
      );
    const item = (await this.answering.knownItems(rfiId)).find((i) => i.item_id === itemId);
    if (!item) throw new NotFoundException([`item_id ${itemId} is not an item of this RFI`]);
    if (item.answer_type !== 'document')
      throw new BadRequestException([
        `item_id is a ${item.answer_type} item: answer it with PATCH /rfis/${rfiId}/items (spec 4.3 rule 2)`,
      ]);
    try {
      const answered = await this.stream(rfiId, itemId, item, req);
      await this.projection.applyItems(rfiId, [answered]);
      this.sync.readSoon(rfiId);
      return { item: answered };
    } catch (error) {
      throw this.answering.refused(rfiId, error);
    }
  }

  private stream(rfiId: string, itemId: string, item: RfiItem, req: Request): Promise<RfiItem> {
    return new Promise<RfiItem>((resolve, reject) => {
      let local: HttpException | null = null;
      let upload: Promise<RfiItem> | null = null;
      const body = new PassThrough();
      // Its failure reaches the caller through the library's upload (or `local`), not as an event.
      body.on('error', () => undefined);
      const fail = (problem: string): void => {
        local ??= new BadRequestException([problem]);
        body.destroy(local);
      };
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: req.headers,
          limits: { files: 1, fields: 0, fileSize: MAX_UPLOAD_REQUEST_BYTES },
        });
      } catch (error) {
        return reject(
          new BadRequestException([`the multipart body cannot be read: ${(error as Error).message}`]),
        );
      }
      parser.on('file', (name, file, info) => {
        if (name !== 'files') {
          file.resume();
          return fail(`${name} is not a known field: the file goes in the field files (spec 4.2)`);
        }
        file.on('limit', () => fail(`files must be at most ${MAX_UPLOAD_REQUEST_BYTES} bytes (spec 8)`));
        file.on('error', (error: Error) => fail(`the file could not be read: ${error.message}`));
        file.pipe(body, { end: false });
        upload = this.rfis.uploadDocuments(
          rfiId,
          itemId,
          [{ stream: body, fileName: info.filename ?? 'upload', contentType: info.mimeType }],
          { item },
        );
        // A local refusal (the library's checks, before the partner is called): the rest of the
        // body is read and dropped, so the answer can be sent on a connection left in order.
        upload.catch(() => {
          file.unpipe(body);
          body.destroy();
          file.resume();
        });
      });
      parser.on('field', (name) => fail(`${name} is not a known field: send one file in the field files`));
      parser.on('filesLimit', () =>
        fail('files: one file per request (each upload adds to the item, spec 4.2 rule 1)'),
      );
      parser.on('fieldsLimit', () =>
        fail('only the field files is accepted: send one file in it and nothing else'),
      );
      let finished = false;
      // Once the body has ended (or broken off): the partner's request is ended, or aborted.
      const finish = (): void => {
        if (finished) return;
        finished = true;
        if (!upload) local ??= new BadRequestException(['files is required: one file in the field files']);
        if (local) body.destroy(local);
        else body.end();
        if (!upload) return reject(local);
        upload.then(resolve, (error: unknown) => reject(local ?? error));
      };
      parser.on('close', finish);
      parser.on('error', (error: Error) => {
        fail(`the multipart body cannot be read: ${error.message}`);
        finish();
      });
      req.on('close', () => {
        if (req.complete) return;
        fail('the request was aborted before its body ended');
        finish();
      });
      req.pipe(parser);
    });
  }
}
