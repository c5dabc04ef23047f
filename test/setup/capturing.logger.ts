import type { LoggerService } from '@nestjs/common';

/** Every line the app logs, at every level (a LoggerService given to startApp gets them all). */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  private add = (...parts: unknown[]): void => {
    this.lines.push(
      parts
        .map((p) =>
          typeof p === 'string' ? p : p instanceof Error ? `${p.message}\n${p.stack}` : JSON.stringify(p),
        )
        .join(' '),
    );
  };
  log = this.add;
  error = this.add;
  warn = this.add;
  debug = this.add;
  verbose = this.add;
  fatal = this.add;
}
