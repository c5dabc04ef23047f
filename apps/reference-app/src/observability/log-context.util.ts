import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';

/** Ids every log line of a piece of work carries in JSON mode, snake_case as logged. */
export interface LogFields {
  request_id?: string;
  event_id?: string;
  payout_id?: string;
}

/**
 * What the work running now carries: its log fields and, when the app traces, its OpenTelemetry
 * context. One AsyncLocalStorage for both (LogScopeContextManager): on Node 20 every storage that
 * has been entered once costs a store on every promise of the process from then on (async hooks),
 * and a second one for the trace context is a visible share of a webhook delivery's cost even
 * with every trace sampled out (bench/README.md, "Warm counts").
 */
interface Ambient {
  readonly fields?: LogFields;
  readonly trace?: Context;
  /** The tracing generation `trace` was entered in (see LogScopeContextManager.disable). */
  readonly generation?: number;
}

const scope = new AsyncLocalStorage<Ambient>();
/** Bumped when a manager is disabled: trace contexts entered before are not active any more. */
let generation = 0;

/** The current store with `changes`, the trace context and its generation carried along. */
function entered(changes: Ambient): Ambient {
  const current = scope.getStore();
  return { fields: current?.fields, trace: current?.trace, generation: current?.generation, ...changes };
}

/** The fields of the work running now, or undefined outside any scope. */
export function currentLogFields(): LogFields | undefined {
  return scope.getStore()?.fields;
}

/** Runs `work` in a new scope: the current fields plus `fields` (the caller's scope is not changed). */
export function withLogFields<T>(fields: LogFields, work: () => T): T {
  return scope.run(entered({ fields: { ...scope.getStore()?.fields, ...fields } }), work);
}

/** Adds fields to the current scope (a request's, or one withLogFields opened); nothing outside one. */
export function addLogFields(fields: LogFields): void {
  const current = scope.getStore()?.fields;
  if (current) Object.assign(current, fields);
}

/**
 * OpenTelemetry's context manager over the log scope's storage: the trace context is the `trace`
 * of the same store, so tracing enters no AsyncLocalStorage of its own. Everything else (binding
 * functions and event emitters to a context) is the SDK's AsyncLocalStorageContextManager, whose
 * own storage this never enters. Entering a trace context keeps the log fields, and the reverse.
 */
export class LogScopeContextManager extends AsyncLocalStorageContextManager {
  override active(): Context {
    const current = scope.getStore();
    return (current?.generation === generation && current.trace) || ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const work = thisArg == null ? fn : (fn.bind(thisArg) as F);
    return scope.run(entered({ trace: context, generation }), work, ...args);
  }

  /**
   * Sets `context` for the rest of the current execution (ContextManager.attach, experimental; the
   * API 1.9 never calls it). Disposing restores the store as it was at attach: it holds within the
   * log scope attach was called in, not across a withLogFields opened in between.
   */
  override attach(context: Context): { dispose(): void } {
    const previous = scope.getStore();
    scope.enterWith(entered({ trace: context, generation }));
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        scope.enterWith(previous ?? {});
      },
    };
  }

  /**
   * The storage stays (the log fields live in it whether the app traces or not); the trace contexts
   * entered so far stop being active, in work still running too, as when the SDK's manager
   * disables its own storage: an app closed and another started in the same process (tests) do
   * not share traces.
   */
  override disable(): this {
    generation++;
    return this;
  }
}

/** A caller's X-Request-Id is kept when it is a plain token; anything else is replaced, never logged. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Express middleware: one scope per HTTP request, with the caller's X-Request-Id (or a new UUID),
 * echoed in the answer. Work the request starts (a webhook's processing after its 2xx) keeps it.
 */
export function requestLogScope(req: Request, res: Response, next: NextFunction): void {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
  res.setHeader('X-Request-Id', id);
  scope.run(entered({ fields: { request_id: id } }), next);
}
