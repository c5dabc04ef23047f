import { describeShape, matchShape, safeValue, t } from './shape.util';

describe('conformance shapes', () => {
  const user = t.object(
    { id: t.string, status: t.enum('CREATED', 'REVIEW'), tags: t.array(t.object({ k: t.integer })) },
    ['user_id'],
  );

  it('describes a shape in one line, names and types only', () => {
    expect(describeShape(user)).toBe(
      '{ id: string, status: CREATED|REVIEW, tags: { k: integer }[], no user_id }',
    );
    expect(describeShape(t.object({ a: t.optional(t.nullable(t.string)) }))).toBe('{ a?: string | null }');
  });

  it('matches a conforming body and ignores extra fields', () => {
    expect(matchShape(user, { id: 'x', status: 'REVIEW', tags: [{ k: 1 }], extra: true })).toEqual([]);
  });

  it('names every differing path, a renamed id included', () => {
    expect(matchShape(user, { user_id: 'x', status: 'VERIFIED', tags: [{ k: 1.5 }] })).toEqual([
      'body.id: expected string, got absent',
      'body.status: expected CREATED|REVIEW, got "VERIFIED"',
      'body.tags[0].k: expected integer, got number',
      'body.user_id: expected absent, present (string)',
    ]);
    expect(matchShape(user, [])).toEqual(['body: expected object, got array']);
  });

  it('never prints a value that is not an enum-like word', () => {
    expect(safeValue('4000123456')).toBe('a string of 10 chars');
    expect(safeValue('sbx_abc123')).toBe('a string of 10 chars');
    expect(safeValue('IDEMPOTENCY_CONFLICT')).toBe('"IDEMPOTENCY_CONFLICT"');
    expect(safeValue(42)).toBe('number');
    expect(matchShape(t.enum('A'), 'secret value 123')).toEqual([
      'body: expected A, got a string of 16 chars',
    ]);
  });
});
