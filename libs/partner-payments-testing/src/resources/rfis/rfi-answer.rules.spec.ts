import { answerProblem } from './rfi-answer.rules';
import type { AnswerType } from '../../server/rfi-state.types';

const item = (answer_type: AnswerType, answer_spec: Record<string, unknown> = {}) => ({
  answer_type,
  answer_spec,
});
const today = new Date('2026-06-15T12:00:00Z');

describe('answerProblem (spec 4.3.3, answer_spec per answer_type)', () => {
  it('text_short honours max_length; text refuses empty and non-strings', () => {
    expect(answerProblem(item('text_short', { max_length: 5 }), 'abcde')).toBeUndefined();
    expect(answerProblem(item('text_short', { max_length: 5 }), 'abcdef')).toContain('maximum length of 5');
    expect(answerProblem(item('text_long'), '  ')).toBeDefined();
    expect(answerProblem(item('text_long'), 42)).toBeDefined();
  });

  it('number: a JSON number within min/max', () => {
    expect(answerProblem(item('number', { min: 0, max: 10 }), 10)).toBeUndefined();
    expect(answerProblem(item('number', { min: 0, max: 10 }), 11)).toContain('at most 10');
    expect(answerProblem(item('number', { min: 0 }), -1)).toContain('at least 0');
    expect(answerProblem(item('number'), '5')).toContain('number');
  });

  it('date: a real calendar date, not in the future, min_age', () => {
    expect(answerProblem(item('date', { min_age: 18 }), '2008-06-15', today)).toBeUndefined();
    expect(answerProblem(item('date', { min_age: 18 }), '2008-06-16', today)).toContain('18');
    expect(answerProblem(item('date'), '2026-02-30', today)).toContain('YYYY-MM-DD');
    expect(answerProblem(item('date'), '2027-01-01', today)).toContain('future');
  });

  it('boolean and choice', () => {
    expect(answerProblem(item('boolean'), false)).toBeUndefined();
    expect(answerProblem(item('boolean'), 'false')).toBeDefined();
    expect(answerProblem(item('choice', { options: ['a', 'b'] }), 'b')).toBeUndefined();
    expect(answerProblem(item('choice', { options: ['a', 'b'] }), 'c')).toContain('a, b');
  });

  it.each([
    ['ein', '12-3456789', '1234'],
    ['ssn', '123-45-6789', '12-345-6789'],
    ['email', 'a@b.co', 'a@b'],
    ['e164', '+14155550100', '0014155550100'],
    ['url', 'https://example.com/x', 'ftp://example.com'],
    ['country_alpha3', 'USA', 'US'],
  ])('identifier format %s', (format, good, bad) => {
    expect(answerProblem(item('identifier', { format }), good)).toBeUndefined();
    expect(answerProblem(item('identifier', { format }), bad)).toContain(format);
  });

  it('document items are never answered by value (4.3.2); ubo_link needs a confirmation', () => {
    expect(answerProblem(item('document'), 'file.pdf')).toContain('upload');
    expect(answerProblem(item('ubo_link'), true)).toBeUndefined();
    expect(answerProblem(item('ubo_link'), '')).toBeDefined();
  });
});
