import { AttemptDeadline } from './attempt-deadline.util';

describe('AttemptDeadline (the signal axios is given for an attempt)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('aborts at the deadline and tells every listener once, a removed one not at all', () => {
    const deadline = new AttemptDeadline(1_000);
    const told: string[] = [];
    const removed = (): number => told.push('removed');
    deadline.addEventListener('abort', () => told.push('axios'));
    deadline.addEventListener('abort', removed);
    deadline.addEventListener('abort', () => told.push('interceptor'));
    deadline.removeEventListener('abort', removed);
    jest.advanceTimersByTime(999);
    expect(deadline.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(deadline.aborted).toBe(true);
    expect(told).toEqual(['axios', 'interceptor']);
    deadline.expire();
    expect(told).toHaveLength(2);
  });

  it('cleared before the deadline, it never aborts and leaves no timer', () => {
    const deadline = new AttemptDeadline(1_000);
    const listener = jest.fn();
    deadline.addEventListener('abort', listener);
    deadline.clear();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(5_000);
    expect(deadline.aborted).toBe(false);
    expect(listener).not.toHaveBeenCalled();
  });

  it('a deadline beyond what Node timers hold is capped, not fired at once', () => {
    const deadline = new AttemptDeadline(Number.MAX_SAFE_INTEGER);
    jest.advanceTimersByTime(60_000);
    expect(deadline.aborted).toBe(false);
    deadline.clear();
  });
});
