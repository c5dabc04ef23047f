import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger, ValidationPipe, type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module';
import { APP_CONFIG, loadAppConfig, type AppConfig } from './config/app.config';
import { applyHttpServerLimits } from './config/http-server.config';
import { describeDatabase } from './database/database-url.util';
import { DemoRunner, type DemoResult } from './demo/demo-runner.service';
import { PayoutEntity } from './payouts/payout.entity';
import { describeAccess } from './common/access.guard';
import { APP_BODY_LIMIT_BYTES, bodySizeLimit } from './common/body-limit.middleware';
import { isWebhookPath, jsonDepthLimit, jsonOnlyWrites } from './common/json-depth.middleware';
import { OpenApiDocument } from './openapi/openapi-document.service';
import { AppJsonLogger, AppTextLogger, configuredSecrets } from './observability/json-logger.service';
import { requestLogScope } from './observability/log-context.util';
import { PARTNER_CONNECTION, type PartnerConnection } from './sandbox/partner-connection.providers';
import { CronJobsService } from './scheduling/cron-jobs.service';
import { inboxConfigurationProblem } from './webhooks/inbox-options.config';

export interface StartAppOptions {
  /** Variables on top of process.env. */
  env?: Record<string, string | undefined>;
  envFile?: boolean;
  /** Interface to listen on; overrides HOST (default 127.0.0.1, containers set HOST=0.0.0.0). */
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
  /** Settles once the start-up partner calls (version pin, first authentication) have finished. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Boots the app on a real socket: main.ts and the e2e suites share this path. */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const appModule = await AppModule.forRoot({ env: options.env, envFile: options.envFile });
  // The same validated configuration AppModule built (.env is in process.env by now): the log
  // format must be known before the first line, and LOG_FORMAT=json makes every line JSON.
  const early = loadAppConfig({ ...process.env, ...options.env });
  const appLogger =
    options.logger !== undefined
      ? null
      : early.observability.logFormat === 'json'
        ? new AppJsonLogger(configuredSecrets(early), early.logLevels)
        : new AppTextLogger({ logLevels: early.logLevels });
  const app = await NestFactory.create<NestExpressApplication>(appModule, {
    // spec 6.1.3: the signature is verified against the raw bytes as received.
    rawBody: true,
    logger: appLogger ?? options.logger,
  });
  // GET /openapi.json describes this application: its document is scanned from it.
  app.get(OpenApiDocument).attach(app);
  // The webhook route (every path Express routes to it, any case) is left
  // to the module's guard, which reads the raw bytes (up to its own 1 MB limit), verifies the
  // signature (spec 6.1.3) and only then parses them, whatever charset the content type names.
  // JSON elsewhere, where the app's own bodies are a few hundred bytes: 100 kB (body-parser's
  // default) keeps an unauthenticated caller from making it parse a megabyte before any guard runs.
  // Past the limit nothing more is read (body-parser would read an endless body to its end first).
  app.use(bodySizeLimit(APP_BODY_LIMIT_BYTES));
  app.useBodyParser('json', {
    limit: APP_BODY_LIMIT_BYTES,
    type: (req: IncomingMessage) =>
      !isWebhookPath(req.url ?? '') && /^application\/(.+\+)?json\b/i.test(req.headers['content-type'] ?? ''),
  });
  app.useBodyParser('urlencoded', {
    limit: APP_BODY_LIMIT_BYTES,
    type: (req: IncomingMessage) =>
      !isWebhookPath(req.url ?? '') &&
      /^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''),
  });
  // Every line logged while serving a request carries its request_id. After the body
  // parsers: they call next() from a stream event, where a scope opened before them is lost.
  app.use(requestLogScope, jsonOnlyWrites, jsonDepthLimit);
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  if (options.shutdownHooks) app.enableShutdownHooks();

  const config = app.get<AppConfig>(APP_CONFIG);
  const host = options.host ?? config.host;
  // A client sending a byte now and then must not hold a connection (or all of them) for minutes.
  applyHttpServerLimits(app.getHttpServer(), config.http);
  try {
    await app.listen(config.port, host);
  } catch (error) {
    // A start refused during bootstrap (e.g. an inbox key missing): release the database and the
    // embedded sandbox before reporting it, so nothing is left half-started.
    await app.close().catch(() => undefined);
    throw inboxConfigurationProblem(error) ?? error;
  }
  const bound = app.getHttpServer().address() as AddressInfo;
  const port = bound.port;
  // Where this process itself reaches the app (a wildcard bind is reached on loopback).
  const url = `http://${['0.0.0.0', '::'].includes(bound.address) ? '127.0.0.1' : bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${port}`;
  const logger = new Logger('ReferenceApp');
  // The address really bound, which may differ from HOST (0.0.0.0 is reachable here at 127.0.0.1).
  logger.log(
    `listening on ${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${port}${bound.address !== host ? ` (HOST ${host})` : ''}, reachable here at ${url} (database: ${describeDatabase(config.database)})`,
  );

  // One line saying which endpoints are open (the demo) or refused (unset), so exposure is visible.
  const access = describeAccess(config);
  if (access) logger.warn(access);

  const connection = app.get<PartnerConnection>(PARTNER_CONNECTION);
  if (connection.sandbox) {
    // The embedded sandbox plays the operator who registers our webhook URL (spec 6.1.1).
    const hook = `${config.publicBaseUrl ?? url}/webhooks/partner`;
    await connection.sandbox.control.setWebhookUrl(hook);
    logger.log(`embedded sandbox delivers webhooks to ${hook}`);
    // The control API drives the partner's side (verify users, move payouts); say where.
    logger.log(
      `embedded sandbox control API at ${connection.sandbox.controlUrl} — e.g. move a payout forward: curl -X POST ${connection.sandbox.controlUrl}/advancePayout -H 'content-type: application/json' -d '{"args":["<payout_id>",["PENDING","PROCESSING","COMPLETED"]]}'`,
    );
    // The embedded sandbox keeps its state in memory: every start is a partner that knows no payout.
    // Rows an earlier run stored read "404 Payout not found" at each reconciliation pass; say why once.
    const earlier = await app.get(DataSource).getRepository(PayoutEntity).count();
    if (earlier > 0)
      logger.warn(
        `the database holds ${earlier} payout(s) from an earlier run; the embedded sandbox starts empty at every start, so reconciliation reads them as "404 Payout not found" and retries them with back-off. To start clean: ${config.database.kind === 'sqlite' ? `stop the app and delete ${config.database.path} (with its -wal and -shm files)` : 'point DATABASE_URL at an empty database'}`,
      );
  }

  // The partner is called only now, in the background: the port is already open, so a slow or
  // absent partner never keeps the app from serving (webhooks are stored meanwhile).
  const ready = app.get(CronJobsService).warmUp();

  let demo: Promise<DemoResult> | null = null;
  if (config.demo && connection.sandbox && options.allowDemo !== false) {
    // The demo's steps follow the start-up pin in the log.
    demo = ready.then(() => app.get(DemoRunner).run(url));
    demo.catch((error: Error) => logger.error(`demo failed: ${error.message}`));
  }
  return { app, url, config, connection, demo, ready, close: () => app.close() };
}
