/**
 * The webhook-ingest baseline: a bare Nest 12 POST route in the reference app's shape (Express
 * platform, rawBody kept, JSON parsed, the same route path, logger at 'error') that answers 200 and
 * does nothing else: no guard, no inbox, no database. What the framework costs per delivery is the
 * floor the app's durable ingest is compared with.
 */
import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { serveUntilStopped } from './lib/forked-process.fixture';

@Controller('webhooks')
class BareWebhookController {
  @Post('partner')
  @HttpCode(200)
  accept(): { status: string } {
    return { status: 'accepted' };
  }
}

@Module({ controllers: [BareWebhookController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(BareModule, {
    rawBody: true,
    logger: ['error'],
  });
  app.useBodyParser('json', { limit: '1mb' });
  await app.listen(0, '127.0.0.1');
  serveUntilStopped(await app.getUrl(), async () => {
    await app.close();
    return {};
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bare Nest app failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
