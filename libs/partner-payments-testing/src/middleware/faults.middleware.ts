import type { RequestHandler, Response } from 'express';
import { requestState, type SandboxContext } from '../server/sandbox.context';
import { routeTemplate } from '../server/telemetry.store';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Faults armed by the control API: added latency, 5xx bursts, 429 with Retry-After, a connection
 * reset before anything is done, and accepted-then-reset (the handler runs and writes, then the
 * socket is destroyed instead of answering, so the answer is lost).
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
