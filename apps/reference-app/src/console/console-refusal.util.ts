import { HttpException, type LoggerService } from '@nestjs/common';
import { PartnerError, PartnerLocalValidationError } from '@partner-payments/nestjs';
import type { PageMessages } from './console-pages.util';

/**
 * A refusal as the page shows it: the library's per-answer errors (`items[i].answer_value`) and
 * the partner's per-item errors beside their items, anything else above the form.
 */
export function pageRefusal(
  error: unknown,
  sent: ReadonlyArray<{ item_id: string }>,
  logger: Pick<LoggerService, 'error'>,
): [number, PageMessages] {
  const itemErrors = new Map<string, string[]>();
  const add = (id: string, message: string) => itemErrors.set(id, [...(itemErrors.get(id) ?? []), message]);
  if (error instanceof PartnerLocalValidationError) {
    const errors: string[] = [];
    for (const e of error.fieldErrors) {
      const at = /^items\[(\d+)\]\.\w+/.exec(e.field);
      const id = at ? sent[Number(at[1])]?.item_id : undefined;
      if (id) add(id, e.message);
      else errors.push(`${e.field}: ${e.message}`);
    }
    return [400, { itemErrors, errors }];
  }
  if (error instanceof HttpException) {
    const response = error.getResponse() as { message?: unknown; item_errors?: unknown };
    if (Array.isArray(response.item_errors)) {
      for (const e of response.item_errors as Array<{ item_id: string; message: string }>)
        add(e.item_id, e.message);
      return [error.getStatus(), { itemErrors }];
    }
    const message = response.message ?? error.message;
    return [
      error.getStatus(),
      { itemErrors, errors: Array.isArray(message) ? message.map(String) : [String(message)] },
    ];
  }
  if (error instanceof PartnerError)
    return [502, { errors: [`The partner could not answer: ${error.message}`] }];
  logger.error(error);
  return [500, { errors: ['Unexpected error: see the application log.'] }];
}
