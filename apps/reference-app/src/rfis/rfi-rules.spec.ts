import { BadRequestException } from '@nestjs/common';
import { parentColumns } from './rfi-mapping.util';
import { parseOpenRfiQuery } from './rfi-query.rules';
import { decideRfiStatus } from './rfi-status.policy';

describe('decideRfiStatus', () => {
  it('takes what is observed while the RFI is open', () => {
    expect(decideRfiStatus(null, 'pending')).toBe('pending');
    expect(decideRfiStatus('pending', 'answered')).toBe('answered');
    expect(decideRfiStatus('answered', 'pending')).toBe('pending'); // a returned item (spec 3.1)
    expect(decideRfiStatus('answered', 'resolved')).toBe('resolved');
  });

  it('never reopens a closed or withdrawn RFI (a late or replayed event, an older list row)', () => {
    expect(decideRfiStatus('not_resolved', 'pending')).toBe('not_resolved');
    expect(decideRfiStatus('resolved', 'answered')).toBe('resolved');
    expect(decideRfiStatus('withdrawn', 'pending')).toBe('withdrawn');
    expect(decideRfiStatus('resolved', 'withdrawn')).toBe('withdrawn');
  });

  it('keeps the status when the observation carries none', () => {
    expect(decideRfiStatus('answered', null)).toBe('answered');
  });
});

describe('parentColumns', () => {
  const base = { id: 'r1', status: 'PENDING', user_id: 'u1', due_at: '2026-12-01T00:00:00Z' };

  it('reads blocking as evidence §7 shows it, a payout or a deposit', () => {
    expect(parentColumns({ ...base, blocking: { type: 'payout', transfer_uuid: 't1' } }).blocking).toEqual({
      type: 'payout',
      ref: 't1',
    });
    expect(
      parentColumns({ ...base, blocking: { type: 'deposit', virtual_account_deposit_uuid: 'd1' } }).blocking,
    ).toEqual({ type: 'deposit', ref: 'd1' });
    expect(parentColumns({ ...base, blocking: null }).blocking).toBeNull();
  });

  it('leaves blocking and resolution_reason undefined when the record lacks them, so a list row clears nothing', () => {
    const cols = parentColumns(base);
    expect(cols.blocking).toBeUndefined();
    expect(cols.resolutionReason).toBeUndefined();
    expect(cols).toMatchObject({ status: 'pending', userId: 'u1', dueAt: new Date('2026-12-01T00:00:00Z') });
  });
});

describe('parseOpenRfiQuery', () => {
  const problems = (query: Record<string, unknown>): string[] => {
    try {
      parseOpenRfiQuery(query);
      return [];
    } catch (error) {
      return (error as BadRequestException).getResponse() as unknown as string[];
    }
  };

  it('parses the filters', () => {
    expect(
      parseOpenRfiQuery({
        user_id: '3F8E5A52-2C43-4C1E-9A57-2F0C8F1A7B10',
        blocking: 'false',
        due_before: '2026-12-31',
      }),
    ).toEqual({
      userId: '3f8e5a52-2c43-4c1e-9a57-2f0c8f1a7b10',
      blocking: false,
      dueBefore: new Date('2026-12-31T00:00:00Z'),
    });
  });

  it('names a repeated parameter and an instant without its zone', () => {
    const response = problems({ blocking: ['true', 'false'], due_before: '2026-12-31T10:00:00' });
    expect(JSON.stringify(response)).toContain('blocking must be given once');
    expect(JSON.stringify(response)).toContain('due_before must be a date');
  });
});
