import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { LoggerService } from '@nestjs/common';
import { AppJsonLogger, AppTextLogger } from './json-logger.service';

@Controller('things')
class ThingsController {
  @Get()
  list(): string[] {
    return [];
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

/** Boots a real Nest app with `logger` and answers what it printed while mapping its routes. */
async function bootOutput(logger: LoggerService): Promise<string> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    const app = await NestFactory.create(ThingsModule, { logger });
    await app.init();
    await app.close();
  } finally {
    process.stdout.write = write;
  }
  return chunks.join('');
}

describe("the app's loggers: Nest's route table only at debug level", () => {
  it.each([
    ['text', (levels: ('log' | 'debug' | 'error' | 'warn')[]) => new AppTextLogger({ logLevels: levels })],
    ['json', (levels: ('log' | 'debug' | 'error' | 'warn')[]) => new AppJsonLogger([], levels)],
  ])('%s: no "Mapped {/things, GET}" line at log level, the line at debug level', async (_format, make) => {
    const quiet = await bootOutput(make(['error', 'warn', 'log']));
    expect(quiet).toContain('Nest application successfully started');
    expect(quiet).not.toContain('/things');
    const verbose = await bootOutput(make(['error', 'warn', 'log', 'debug']));
    expect(verbose).toContain('Mapped {/things, GET} route');
  });
});
