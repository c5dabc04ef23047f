import { decideDepositStatus } from './deposit-status.policy';

describe('decideDepositStatus', () => {
  it('takes the first status it hears, uppercased, and replaces the app-made RECEIVED', () => {
    expect(decideDepositStatus(null, 'pending')).toBe('PENDING');
    expect(decideDepositStatus('RECEIVED', 'COMPLETED')).toBe('COMPLETED');
  });
  it('moves forward: a hold, its release, a refund after settlement', () => {
    expect(decideDepositStatus('PENDING', 'KYT_PENDING')).toBe('KYT_PENDING');
    expect(decideDepositStatus('KYT_PENDING', 'KYT_REJECTED')).toBe('KYT_REJECTED');
    expect(decideDepositStatus('KYT_REJECTED', 'COMPLETED')).toBe('COMPLETED');
    expect(decideDepositStatus('COMPLETED', 'REFUNDED')).toBe('REFUNDED');
  });
  it('never moves COMPLETED back to a status before settlement (a stale read applied late)', () => {
    for (const stale of ['PENDING', 'KYT_PENDING', 'KYT_REJECTED', 'RECEIVED'])
      expect(decideDepositStatus('COMPLETED', stale)).toBe('COMPLETED');
  });
  it('does not let a late PENDING reset a hold, nor a late KYT_PENDING undo its rejection', () => {
    expect(decideDepositStatus('KYT_PENDING', 'PENDING')).toBe('KYT_PENDING');
    expect(decideDepositStatus('KYT_REJECTED', 'PENDING')).toBe('KYT_REJECTED');
    expect(decideDepositStatus('KYT_REJECTED', 'KYT_PENDING')).toBe('KYT_REJECTED');
  });
  it('keeps FAILED and REFUNDED final', () => {
    expect(decideDepositStatus('FAILED', 'COMPLETED')).toBe('FAILED');
    expect(decideDepositStatus('REFUNDED', 'COMPLETED')).toBe('REFUNDED');
  });
  it('keeps the stored status when the event carries none', () => {
    expect(decideDepositStatus('KYT_PENDING', undefined)).toBe('KYT_PENDING');
  });
});
