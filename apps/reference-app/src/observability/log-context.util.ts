import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Ids every log line of a piece of work carries in JSON mode (issue 13), snake_case as logged. */
export interface LogFields {
  request_id?: string;
  event_id?: string;
  payout_id?: string;
}

const scope = new AsyncLocalStorage<LogFields>();

/** The fields of the work running now, or undefined outside any scope. */
export function currentLogFields(): LogFields | undefined {
  return scope.getStore();
}

/** Runs `work` in a new scope: the current fields plus `fields` (the caller's scope is not changed). */
export function withLogFields<T>(fields: LogFields, work: () => T): T {
  return scope.run({ ...scope.getStore(), ...fields }, work);
}

/** Adds fields to the current scope (a request's, or one withLogFields opened); nothing outside one. */
export function addLogFields(fields: LogFields): void {
  const current = scope.getStore();
  if (current) Object.assign(current, fields);
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
  scope.run({ request_id: id }, next);
}
