import { Logger, type Provider } from '@nestjs/common';
import { startPartnerSandbox, type PartnerSandbox } from '@partner-payments/testing';
import { APP_CONFIG, type AppConfig } from '../config/app.config';

export const PARTNER_CONNECTION = Symbol('PARTNER_CONNECTION');

/** Where the partner is and how to sign in: from the environment, or the embedded sandbox. */
export interface PartnerConnection {
  baseUrl: string;
  environment: 'sandbox' | 'production';
  apiKey: string;
  clientId: string;
  password: string;
  clientUuid: string | null;
  webhookSecrets: string[];
  /** The embedded sandbox when PARTNER_BASE_URL is unset; the app registers its webhook URL on it after listen. */
  sandbox: PartnerSandbox | null;
}

/**
 * PARTNER_BASE_URL unset: start the contract-faithful sandbox in this process on 127.0.0.1 and a
 * free port, and use its credentials (issue: the demo). The credentials are never logged.
 */
export const partnerConnectionProvider: Provider = {
  provide: PARTNER_CONNECTION,
  inject: [APP_CONFIG],
  useFactory: async (config: AppConfig): Promise<PartnerConnection> => {
    const p = config.partner;
    if (p.baseUrl) {
      return {
        baseUrl: p.baseUrl,
        environment: p.environment,
        apiKey: p.apiKey ?? '',
        clientId: p.clientId ?? '',
        password: p.password ?? '',
        clientUuid: p.clientUuid,
        webhookSecrets: p.webhookSecrets,
        sandbox: null,
      };
    }
    const logger = new Logger('EmbeddedSandbox');
    const sandbox = await startPartnerSandbox({
      host: '127.0.0.1',
      port: 0,
      // The embedded sandbox plays the partner's account manager too: it authorizes the four banks
      // for this account (the demo opens a virtual account at bank_a), which the partner does per
      // account on request; its default is none (spec 2.4 `authorizedBanks`: default []).
      authorizedBanks: ['bank_a', 'bank_b', 'bank_c', 'bank_d'],
      // The partner sends rfi.* on newer versions (evidence §9); the sandbox only when asked. The
      // demo's RFI reaches the app by its event, as it would from the partner.
      rfiEvents: true,
      logger: { log: (m) => logger.debug(m), warn: (m) => logger.warn(m) },
    });
    logger.log(
      `PARTNER_BASE_URL is not set: started the embedded partner sandbox at ${sandbox.sandboxBaseUrl}`,
    );
    return {
      baseUrl: sandbox.baseUrl,
      environment: 'sandbox',
      apiKey: sandbox.credentials.apiKey,
      clientId: sandbox.credentials.clientId,
      password: sandbox.credentials.password,
      clientUuid: sandbox.credentials.clientUuid,
      webhookSecrets: [sandbox.webhookSecret],
      sandbox,
    };
  },
};
