import { decideUserStatus } from './user-status.policy';

describe('decideUserStatus', () => {
  it('takes the first status it hears, uppercased', () => {
    expect(decideUserStatus(null, 'verifying')).toBe('VERIFYING');
  });
  it('moves on to newer statuses', () => {
    expect(decideUserStatus('VERIFYING', 'VERIFIED')).toBe('VERIFIED');
    expect(decideUserStatus('VERIFIED', 'ACTIVE')).toBe('ACTIVE');
  });
  it('does not let a late user.created reset the status', () => {
    expect(decideUserStatus('VERIFIED', 'CREATED')).toBe('VERIFIED');
  });
  it('keeps REJECTED terminal (spec 3.3)', () => {
    expect(decideUserStatus('REJECTED', 'VERIFIED')).toBe('REJECTED');
  });
  it('keeps the stored status when the event carries none', () => {
    expect(decideUserStatus('VERIFYING', undefined)).toBe('VERIFYING');
  });
});
