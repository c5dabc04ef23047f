/**
 * Preloaded (after ts-node) into a replica child process started from a test: resolves the
 * workspace packages to their sources, as jest.config.js's moduleNameMapper does for the tests
 * themselves, so a child never runs against a stale (or missing) dist/.
 */
import Module from 'node:module';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const SOURCES: Record<string, string> = {
  '@partner-payments/nestjs': join(root, 'libs', 'partner-payments', 'src', 'index.ts'),
  '@partner-payments/nestjs/models': join(root, 'libs', 'partner-payments', 'src', 'models.ts'),
  '@partner-payments/nestjs/errors': join(root, 'libs', 'partner-payments', 'src', 'errors.ts'),
  '@partner-payments/nestjs/webhooks': join(root, 'libs', 'partner-payments', 'src', 'webhooks.ts'),
  '@partner-payments/nestjs/inbox': join(root, 'libs', 'partner-payments', 'src', 'inbox.ts'),
  '@partner-payments/nestjs/transport': join(root, 'libs', 'partner-payments', 'src', 'transport.ts'),
  '@partner-payments/nestjs/observability': join(root, 'libs', 'partner-payments', 'src', 'observability.ts'),
  '@partner-payments/testing': join(root, 'libs', 'partner-payments-testing', 'src', 'index.ts'),
  '@partner-payments/typeorm': join(root, 'libs', 'partner-payments-typeorm', 'src', 'index.ts'),
  '@partner-payments/typeorm/sql': join(root, 'libs', 'partner-payments-typeorm', 'src', 'sql.ts'),
};
type Resolve = (request: string, ...rest: unknown[]) => string;
const internals = Module as unknown as { _resolveFilename: Resolve };
const resolve = internals._resolveFilename;
internals._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
  return resolve.call(this, SOURCES[request] ?? request, ...rest);
};
