import { PartnerFieldError, PartnerLocalValidationError } from '../../errors/partner.errors';
import { RfiAnswerSpecByType, RfiAnswerType, RfiItem, RfiItemOf } from './rfi.model';
import { collectRfiAnswerErrors, validateRfiAnswers } from './rfi-answer.rules';

let seq = 0;
function uuid(): string {
  seq++;
  return `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
}

function item<T extends RfiAnswerType>(
  answer_type: T,
  answer_spec: RfiAnswerSpecByType[T] = {},
): RfiItemOf<T> {
  return {
    item_id: uuid(),
    ordinal: 1,
    prompt: 'question',
    answer_type,
    answer_spec,
    target_key: null,
    subject: null,
    status: 'pending',
    answer_value: null,
    documents: [],
    review_note: null,
    updated_at: null,
    returned_at: null,
  };
}

function errorsOf(fn: () => unknown): PartnerFieldError[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PartnerLocalValidationError);
    return (e as PartnerLocalValidationError).fieldErrors;
  }
  throw new Error('expected a PartnerLocalValidationError');
}

/** Messages for one answer to one known item. */
function check(it: RfiItem, answer_value: unknown, now?: Date): string[] {
  return collectRfiAnswerErrors([{ item_id: it.item_id, answer_value }], [it], { now }).map((e) => e.message);
}

describe('validateRfiAnswers: request shape (spec 4.3)', () => {
  it('refuses an empty array and non-arrays', () => {
    expect(errorsOf(() => validateRfiAnswers([]))).toEqual([
      { field: 'items', message: 'must name at least one item (spec 4.3)' },
    ]);
    expect(errorsOf(() => validateRfiAnswers({ item_id: uuid() }))[0].field).toBe('items');
  });

  it('accepts scalar answers to unknown items, by shape only', () => {
    expect(() =>
      validateRfiAnswers([
        { item_id: uuid(), answer_value: 'x'.repeat(10_000) },
        { item_id: uuid(), answer_value: 42 },
        { item_id: uuid().toUpperCase(), answer_value: false },
      ]),
    ).not.toThrow();
  });

  it('collects bad ids, duplicates and bad shapes with field paths', () => {
    const dup = uuid();
    const errs = errorsOf(() =>
      validateRfiAnswers([
        { item_id: 'not-a-uuid', answer_value: 'a' },
        { item_id: dup, answer_value: 'b' },
        'oops',
        { item_id: dup.toUpperCase(), answer_value: 'c' },
        { item_id: uuid(), answer_value: null },
        { item_id: uuid(), answer_value: { nested: true } },
        { item_id: uuid(), answer_value: Number.NaN },
        { answer_value: 'no id' },
      ]),
    );
    expect(errs).toEqual([
      { field: 'items[0].item_id', message: 'must be a uuid' },
      { field: 'items[2]', message: 'must be an object { item_id, answer_value } (got string)' },
      { field: 'items[3].item_id', message: 'duplicate of items[1].item_id' },
      {
        field: 'items[4].answer_value',
        message: 'must be a string, a finite number or a boolean (got null)',
      },
      {
        field: 'items[5].answer_value',
        message: 'must be a string, a finite number or a boolean (got object)',
      },
      { field: 'items[6].answer_value', message: 'must be a string, a finite number or a boolean (got NaN)' },
      { field: 'items[7].item_id', message: 'must be a uuid' },
    ]);
  });

  it('refuses document items on PATCH (spec 4.3 rule 2) and names the item', () => {
    const doc = item('document', { mime_types: ['application/pdf'] });
    const text = item('text_short');
    const errs = errorsOf(() =>
      validateRfiAnswers(
        [
          { item_id: text.item_id, answer_value: 'fine' },
          { item_id: doc.item_id, answer_value: 'a.pdf' },
        ],
        [text, doc],
      ),
    );
    expect(errs).toEqual([
      { field: 'items[1].item_id', message: 'is a document item: upload files instead (spec 4.3 rule 2)' },
    ]);
  });
});

describe('validateRfiAnswers: answer_type and answer_spec of known items', () => {
  it('text_short / text_long: a non-empty string within max_length (UTF-16 code units, as the sandbox counts)', () => {
    const short = item('text_short', { max_length: 5 });
    expect(check(short, 'abcde')).toEqual([]);
    expect(check(short, '😀😀')).toEqual([]);
    expect(check(short, '😀😀😀')).toEqual(['must be at most 5 characters (UTF-16 code units; got 6)']);
    expect(check(short, 'abcdef')).toEqual(['must be at most 5 characters (UTF-16 code units; got 6)']);
    expect(check(short, 12)).toEqual(['must be a string for this item (got number)']);
    expect(check(short, '')).toEqual(['must be a non-empty string']);
    expect(check(item('text_long'), '  ')).toEqual(['must be a non-empty string']);
    const long = item('text_long', { max_length: 3 });
    expect(check(long, 'abcd')).toEqual(['must be at most 3 characters (UTF-16 code units; got 4)']);
    expect(check(item('text_long'), 'x'.repeat(100_000))).toEqual([]);
  });

  it('text with a known format applies it; a bad spec key is ignored', () => {
    expect(check(item('text_short', { format: 'email' }), 'not-an-email')).toEqual([
      'must be an email address',
    ]);
    expect(check(item('text_short', { format: 'free' }), 'anything')).toEqual([]);
    expect(check(item('text_short', { max_length: '2' as unknown as number }), 'abc')).toEqual([]);
  });

  it('number: finite number within min/max', () => {
    const n = item('number', { min: 0, max: 100, unit: 'USD' });
    expect(check(n, 0)).toEqual([]);
    expect(check(n, 100)).toEqual([]);
    expect(check(n, -1)).toEqual(['must be at least 0']);
    expect(check(n, 100.5)).toEqual(['must be at most 100']);
    expect(check(n, '50')).toEqual(['must be a number for this item (got string)']);
    expect(collectRfiAnswerErrors([{ item_id: n.item_id, answer_value: Infinity }], [n])[0].field).toBe(
      'items[0].answer_value',
    );
  });

  it('boolean: only true/false', () => {
    const b = item('boolean');
    expect(check(b, true)).toEqual([]);
    expect(check(b, false)).toEqual([]);
    expect(check(b, 'true')).toEqual(['must be a boolean for this item (got string)']);
    expect(check(b, 1)).toEqual(['must be a boolean for this item (got number)']);
  });

  it('date: real calendar date yyyy-mm-dd', () => {
    const d = item('date');
    expect(check(d, '2024-02-29')).toEqual([]);
    for (const bad of [
      '2023-02-29',
      '2024-13-01',
      '2024-04-31',
      '2024-1-05',
      '05/01/2024',
      '2024-01-01T00:00:00Z',
    ]) {
      expect(check(d, bad)).toEqual(['must be a calendar date yyyy-mm-dd']);
    }
    expect(check(d, 20240101)).toEqual(['must be a date string yyyy-mm-dd for this item (got number)']);
  });

  it('date with min_age: birth date at least min_age years before today', () => {
    const d = item('date', { min_age: 18 });
    const now = new Date('2026-11-22T12:00:00Z');
    expect(check(d, '2008-11-22', now)).toEqual([]);
    expect(check(d, '1970-01-01', now)).toEqual([]);
    expect(check(d, '2008-11-23', now)).toEqual(['must be a birth date at least 18 years ago']);
    expect(check(d, '2030-01-01', now)).toEqual(['must be a birth date at least 18 years ago']);
    // Born 29 Feb: not yet 18 on 28 Feb of a non-leap year, 18 on 1 March.
    expect(check(d, '2008-02-29', new Date('2026-02-28T23:00:00Z'))).toHaveLength(1);
    expect(check(d, '2008-02-29', new Date('2026-03-01T00:00:00Z'))).toEqual([]);
  });

  it('choice: one of options (plain values or { value } objects)', () => {
    const c = item('choice', { options: ['a', 'b', { value: 'c', label: 'C' }] });
    expect(check(c, 'a')).toEqual([]);
    expect(check(c, 'c')).toEqual([]);
    expect(check(c, 'd')).toEqual(['must be one of "a", "b", "c"']);
    expect(check(c, true)).toEqual(['must be one of "a", "b", "c"']);
    expect(check(item('choice'), 'anything')).toEqual([]);
  });

  it('identifier: the format is applied (full format table in answer-format.validator.spec.ts)', () => {
    const id = item('identifier', { format: 'e164' });
    expect(check(id, '+14155550100')).toEqual([]);
    expect(check(id, '4155550100')).toEqual(['must be an E.164 phone number (e.g. +14155550100)']);
  });

  it('identifier: string required; unknown format is shape-only', () => {
    expect(check(item('identifier', { format: 'ssn' }), 123456789)).toEqual([
      'must be a string for this item (got number)',
    ]);
    expect(check(item('identifier', { format: 'lei' }), 'whatever')).toEqual([]);
  });

  it('ubo_link: string', () => {
    const u = item('ubo_link', { url: 'https://kyc.example/x' });
    expect(check(u, 'person-1')).toEqual([]);
    expect(check(u, false)).toEqual(['must be a string for this item (got boolean)']);
  });

  it('skips known items without a usable item_id instead of throwing', () => {
    const broken = { ...item('text_short'), item_id: undefined } as unknown as RfiItem;
    expect(collectRfiAnswerErrors([{ item_id: uuid(), answer_value: 'x' }], [broken])).toEqual([]);
  });

  it('an answer_type this version does not know only gets the shape check', () => {
    const future = {
      ...item('text_short', { max_length: 1 }),
      answer_type: 'signature',
    } as unknown as RfiItem;
    expect(check(future, 'long answer')).toEqual([]);
  });

  it('reports every bad answer of a mixed request in one error, in order', () => {
    const t = item('text_short', { max_length: 2 });
    const n = item('number', { max: 1 });
    const c = item('choice', { options: ['yes', 'no'] });
    const err = (() => {
      try {
        validateRfiAnswers(
          [
            { item_id: t.item_id, answer_value: 'abc' },
            { item_id: n.item_id, answer_value: 1 },
            { item_id: c.item_id, answer_value: 'maybe' },
          ],
          [t, n, c],
        );
      } catch (e) {
        return e as PartnerLocalValidationError;
      }
      return undefined;
    })();
    expect(err?.fieldErrors.map((e) => e.field)).toEqual(['items[0].answer_value', 'items[2].answer_value']);
    expect(err?.message).toContain('items[2].answer_value: must be one of "yes", "no"');
  });
});

describe('validateRfiAnswers with hostile text', () => {
  it('an email identifier of 50,000 dots is refused at once, naming the item', () => {
    const email = item('identifier', { format: 'email' });
    const started = performance.now();
    const errors = errorsOf(() =>
      validateRfiAnswers([{ item_id: email.item_id, answer_value: `a@${'.'.repeat(50_000)}@` }], [email]),
    );
    // A generous bound: a backtracking regex needs seconds for this value.
    expect(performance.now() - started).toBeLessThan(500);
    expect(errors).toEqual([
      { field: 'items[0].answer_value', message: expect.stringMatching(/email address/) },
    ]);
  });
});
