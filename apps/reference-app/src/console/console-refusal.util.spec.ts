import { PartnerConflictError, PartnerRfiAnswerError } from '@partner-payments/nestjs/errors';
import { validateRfiAnswers, type RfiItem } from '@partner-payments/nestjs/models';
import { rfiRefusal } from '../rfis/rfi-partner-errors.util';
import { pageRefusal } from './console-refusal.util';

const TEXT = '6a1b1a3e-0d2c-4f4e-8a9b-1c2d3e4f5a6b';
const CHOICE = '7b2c2b4f-1e3d-4a5f-9b0c-2d3e4f5a6b7c';
const item = (item_id: string, answer_type: string, answer_spec: Record<string, unknown>) =>
  ({ item_id, answer_type, answer_spec, status: 'pending', documents: [] }) as unknown as RfiItem;
const KNOWN = [item(TEXT, 'text_short', { max_length: 50 }), item(CHOICE, 'choice', { options: ['salary'] })];
const silent = { error: jest.fn() };

/** What the answering service throws for `error`: the library's, or the partner's as the app passes it on. */
const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return rfiRefusal(error) ?? error;
  }
  throw new Error('expected a refusal');
};

describe('pageRefusal: where the console shows a refusal', () => {
  it("puts the library's per-answer errors beside the items they name, by their place in the call", () => {
    const sent = [
      { item_id: CHOICE, answer_value: 'lottery' },
      { item_id: TEXT, answer_value: 'x'.repeat(51) },
    ];
    const [status, page] = pageRefusal(
      thrown(() => validateRfiAnswers(sent, KNOWN)),
      sent,
      silent,
    );
    expect(status).toBe(400);
    expect(page.itemErrors?.get(TEXT)).toEqual([expect.stringMatching(/at most 50 characters/)]);
    expect(page.itemErrors?.get(CHOICE)).toEqual([expect.stringMatching(/one of/)]);
    expect(page.errors).toEqual([]);
  });

  it("puts the partner's per-item errors beside their items, and a closed RFI's 409 above the form", () => {
    const partner = new PartnerRfiAnswerError({
      status: 422,
      code: 'validation_error',
      message: 'refused',
      itemErrors: [{ itemId: CHOICE, message: 'option withdrawn' }],
    });
    const [status, page] = pageRefusal(rfiRefusal(partner), [], silent);
    expect(status).toBe(422);
    expect([...page.itemErrors!]).toEqual([[CHOICE, ['option withdrawn']]]);

    const closed = new PartnerConflictError({ status: 409, code: 'conflict', message: 'RFI is resolved' });
    const [closedStatus, closedPage] = pageRefusal(rfiRefusal(closed), [], silent);
    expect(closedStatus).toBe(409);
    expect(closedPage.errors).toEqual([expect.stringMatching(/closed and no longer accepts answers/)]);
  });

  it('answers anything else 500 without its message, and logs it', () => {
    const logger = { error: jest.fn() };
    const [status, page] = pageRefusal(new Error('db password=hunter2'), [], logger);
    expect(status).toBe(500);
    expect(JSON.stringify(page.errors)).not.toContain('hunter2');
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});
