import type { PartnerSandbox, PartnerSandboxOptions } from '../server/sandbox.types';
import { printableUrl } from '../server/url-mask.util';

/**
 * The lines `partner-sandbox` prints once listening: where it serves, the account (never its api
 * key, password or webhook secret), the banks a virtual account may use and the webhook URL, each
 * with how to change it. The webhooks line comes last: scripts wait for it.
 */
export function startBanner(
  sandbox: Pick<PartnerSandbox, 'baseUrl' | 'sandboxBaseUrl' | 'controlUrl' | 'credentials'>,
  options: Pick<PartnerSandboxOptions, 'bases' | 'authorizedBanks' | 'webhookUrl'>,
): string[] {
  const served =
    options.bases === 'both'
      ? `sandbox base ${sandbox.sandboxBaseUrl}, the root answering alike: not the partner`
      : options.bases === 'root'
        ? 'partner routes only at the root'
        : `partner routes under ${sandbox.sandboxBaseUrl}`;
  const banks = options.authorizedBanks ?? [];
  return [
    `partner sandbox listening on ${sandbox.baseUrl} (${served})`,
    `control API: ${sandbox.controlUrl}  (GET ${sandbox.controlUrl} lists operations)`,
    `client_id: ${sandbox.credentials.clientId}  client_uuid: ${sandbox.credentials.clientUuid}  (api key, password and webhook secret not printed)`,
    // spec 2.4: a new partner account authorizes no bank, so every virtual account is refused
    // until some are named; said here because the refusal alone reads like a bug.
    banks.length > 0
      ? `authorized banks: ${banks.join(', ')}  (virtual accounts may use these; change with --authorized-banks or POST /__control/setAuthorizedBanks)`
      : 'authorized banks: none, as for a new partner account: virtual accounts are refused until you name some with --authorized-banks bank_a,bank_d (or POST /__control/setAuthorizedBanks)',
    `webhooks: ${options.webhookUrl ? printableUrl(options.webhookUrl) : 'no URL set (set one with --webhook-url, POST /__control/setWebhookUrl, or run partner-sandbox listen --forward-to URL)'}`,
  ];
}
