import type { RequestHandler, Response } from 'express';
import { requestState, type SandboxContext } from '../server/sandbox-context.util';
import { routeTemplate } from '../server/telemetry.store';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Faults armed by the control API: added latency, 5xx bursts, 429 with Retry-After, a connection
 * reset before anything is done, accepted-then-reset (the handler runs and writes, then the
 * socket is destroyed instead of answering, so the answer is lost), and accepted-then-stall (the
 * handler runs and writes, then the answer is held `latencyMs`: the window in which a caller that
 * dies, or gives up, never learns what was created).
 */
export function faultsMiddleware(ctx: SandboxContext): RequestHandler {
  return async (req, res, next) => {
    const { latencyMs, terminal } = ctx.faults.take(routeTemplate(req.method, req.path));
    if (latencyMs > 0) await sleep(latencyMs);
    if (!terminal) return next();
    const state = requestState(res);
    state.fault = terminal.kind;
    switch (terminal.kind) {
      case 'server_error':
        res.status(terminal.status).json({
          statusCode: terminal.status,
          error: terminal.status === 503 ? 'Service Unavailable' : 'Internal Server Error',
          message: 'sandbox fault: injected server error',
        });
        return;
      case 'rate_limit':
        res.set('Retry-After', String(terminal.retryAfterSeconds));
        res.status(429).json({ code: 'rate_limited', message: 'Too many requests' });
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'accepted_then_reset':
        loseAnswer(res);
        return next();
      case 'accepted_then_stall':
        holdAnswer(ctx, res, terminal.latencyMs);
        return next();
      default:
        return next();
    }
  };
}

/** Replaces the write of the answer with a socket reset: the work is done, the client never hears. */
function loseAnswer(res: Response): void {
  const destroy = () => {
    res.socket?.destroy();
    return res;
  };
  res.end = destroy as Response['end'];
  res.write = (() => {
    destroy();
    return false;
  }) as Response['write'];
}

/**
 * Holds the answer `ms` after the handler wrote it (the idempotency store already has it: a replay
 * of the key meanwhile gets it). Sent then if the caller is still connected; the sandbox's close()
 * and reset() cancel the timer.
 */
function holdAnswer(ctx: SandboxContext, res: Response, ms: number): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      if (!res.socket?.destroyed) end(...args);
    }, ms);
    ctx.timers.add(timer);
    return res;
  }) as Response['end'];
}
