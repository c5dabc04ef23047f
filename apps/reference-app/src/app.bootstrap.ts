import type { AddressInfo } from 'node:net';
import { Logger, ValidationPipe, type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_CONFIG, type AppConfig } from './config/app.config';
import { describeDatabase } from './database/database-url.parser';
import { DemoRunner, type DemoResult } from './demo/demo.runner';
import { PARTNER_CONNECTION, type PartnerConnection } from './sandbox/partner-connection.provider';

export interface StartAppOptions {
  /** Variables on top of process.env. */
  env?: Record<string, string | undefined>;
  envFile?: boolean;
  /** Interface to listen on. Default 0.0.0.0 for the app, 127.0.0.1 when testing is simpler. */
  host?: string;
  logger?: LoggerService | LogLevel[] | false;
  /** SIGINT/SIGTERM close the app (main.ts). Off in tests, where many apps share one process. */
  shutdownHooks?: boolean;
  /** Run the demo flow after listen when the configuration asks for it (DEMO). Default true. */
  allowDemo?: boolean;
}

export interface RunningApp {
  app: NestExpressApplication;
  url: string;
  config: AppConfig;
  connection: PartnerConnection;
  demo: Promise<DemoResult> | null;
  close(): Promise<void>;
}

/** Boots the app on a real socket: main.ts and the e2e suites share this path. */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const appModule = await AppModule.forRoot({ env: options.env, envFile: options.envFile });
  const app = await NestFactory.create<NestExpressApplication>(appModule, {
    // spec 6.1.3: the signature is verified against the raw bytes as received.
    rawBody: true,
    logger: options.logger,
  });
  // The module answers 413 beyond its 1 MB limit; the JSON parser must not stop earlier (its default is 100 kB).
  app.useBodyParser('json', { limit: '1mb' });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  if (options.shutdownHooks) app.enableShutdownHooks();

  const config = app.get<AppConfig>(APP_CONFIG);
  // LOG_LEVEL applies from here on (the configuration is only known once the module is built).
  if (options.logger === undefined) app.useLogger(config.logLevels);
  await app.listen(config.port, options.host ?? '0.0.0.0');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const logger = new Logger('ReferenceApp');
  logger.log(`listening on ${url} (database: ${describeDatabase(config.database)})`);

  const connection = app.get<PartnerConnection>(PARTNER_CONNECTION);
  if (connection.sandbox) {
    // The embedded sandbox plays the operator who registers our webhook URL (spec 6.1.1).
    const hook = `${config.publicBaseUrl ?? url}/webhooks/partner`;
    await connection.sandbox.control.setWebhookUrl(hook);
    logger.log(`embedded sandbox delivers webhooks to ${hook}`);
  }

  let demo: Promise<DemoResult> | null = null;
  if (config.demo && connection.sandbox && options.allowDemo !== false) {
    demo = app.get(DemoRunner).run(url);
    demo.catch((error: Error) => logger.error(`demo failed: ${error.message}`));
  }
  return { app, url, config, connection, demo, close: () => app.close() };
}
