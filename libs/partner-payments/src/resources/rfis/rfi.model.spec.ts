import { isTerminalDepositStatus } from '../virtual-accounts/virtual-account.model';
import { isTerminalUserStatus } from '../users/user.model';
import { isRfiClosed } from './rfi.model';

describe('status helpers compare case-insensitively and tolerate a missing status', () => {
  it('isRfiClosed: resolved and not_resolved (spec 3.2), any casing; others and missing are open', () => {
    expect(isRfiClosed('resolved')).toBe(true);
    expect(isRfiClosed('NOT_RESOLVED')).toBe(true);
    expect(isRfiClosed(' Resolved ')).toBe(true);
    expect(isRfiClosed('pending')).toBe(false);
    expect(isRfiClosed('withdrawn')).toBe(false);
    expect(isRfiClosed(undefined)).toBe(false);
    expect(isRfiClosed(null)).toBe(false);
  });
  it('isTerminalUserStatus: REJECTED only, any casing; unknown values are not terminal', () => {
    expect(isTerminalUserStatus('rejected')).toBe(true);
    expect(isTerminalUserStatus(' REJECTED ')).toBe(true);
    expect(isTerminalUserStatus('VERIFIED')).toBe(false);
    expect(isTerminalUserStatus('REVIEW')).toBe(false);
    expect(isTerminalUserStatus(null)).toBe(false);
  });
  it('isTerminalDepositStatus: FAILED and REFUNDED only; KYT_REJECTED can still be released', () => {
    expect(isTerminalDepositStatus('refunded')).toBe(true);
    expect(isTerminalDepositStatus('Failed')).toBe(true);
    expect(isTerminalDepositStatus(' refunded\n')).toBe(true);
    expect(isTerminalDepositStatus('KYT_REJECTED')).toBe(false);
    expect(isTerminalDepositStatus(undefined)).toBe(false);
  });
});
