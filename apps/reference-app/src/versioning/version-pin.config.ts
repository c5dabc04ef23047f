import type { PartnerVersionPinOptions } from '@partner-payments/typeorm';
import type { AppConfig } from '../config/app.config';
import type { PartnerConnection } from '../sandbox/partner-connection.providers';

/**
 * The version-pin job of @partner-payments/typeorm, as this app configures it: PARTNER_API_VERSION
 * on VERSION_PIN_CRON. The account is the client UUID, else the client id (half of the /auth
 * pair, spec 4.1: the package keys its row by a digest, never the identifier). The embedded
 * sandbox is a new, unpinned partner at every start, so its account names its port too: a stored
 * pin from an earlier run must not silence the header against a fresh account.
 */
export function appVersionPinOptions(
  config: AppConfig,
  connection: PartnerConnection,
): PartnerVersionPinOptions {
  const id = connection.clientUuid ?? config.partner.clientId ?? 'default';
  return {
    version: config.partner.apiVersion,
    account: connection.sandbox ? `embedded:${connection.sandbox.port}:${id}` : id,
    cron: config.versionPinCron,
  };
}
