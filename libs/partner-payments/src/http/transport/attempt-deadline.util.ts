import type { GenericAbortSignal } from 'axios';
import { MAX_TIMER_MS } from './axios-config.util';

type AbortListener = () => void;

/**
 * An attempt's hard deadline, handed to axios as its request `signal` (axios takes any
 * GenericAbortSignal: `aborted` and add/removeEventListener). One object and one timer per attempt:
 * an AbortController is an EventTarget, several objects per attempt on the hot path of every call
 * (bench/README.md, client). Cleared when the attempt ends, so no timer outlives a call.
 */
export class AttemptDeadline implements GenericAbortSignal {
  aborted = false;
  /** axios's adapter adds one listener; any further ones (a host's interceptor) are kept too. */
  private listener: AbortListener | null = null;
  private more: AbortListener[] | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    // The timer calls a shared function with this deadline: no closure per attempt.
    this.timer = setTimeout(expire, Math.min(ms, MAX_TIMER_MS), this);
  }

  addEventListener(type: string, listener: AbortListener): void {
    if (type !== 'abort') return;
    if (this.listener === null) this.listener = listener;
    else (this.more ??= []).push(listener);
  }

  removeEventListener(type: string, listener: AbortListener): void {
    if (type !== 'abort') return;
    if (this.listener === listener) this.listener = null;
    else if (this.more) this.more = this.more.filter((l) => l !== listener);
  }

  /**
   * The deadline passed: every listener is told once, called on this signal as an EventTarget calls
   * it (axios's fetch adapter reads `this.reason` in its listener).
   */
  expire(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = [this.listener, ...(this.more ?? [])];
    this.listener = this.more = null;
    for (const l of listeners) l?.call(this);
  }

  /** The attempt ended first. */
  clear(): void {
    clearTimeout(this.timer);
  }
}

function expire(deadline: AttemptDeadline): void {
  deadline.expire();
}
