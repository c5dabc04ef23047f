/** DI tokens of the module. Symbols, so they never collide with a host app's string tokens. */
export const PARTNER_PAYMENTS_OPTIONS = Symbol('PARTNER_PAYMENTS_OPTIONS');
/** The resolved options: user options merged with defaults and validated at boot. */
export const PARTNER_RESOLVED_OPTIONS = Symbol('PARTNER_RESOLVED_OPTIONS');
/** The webhook inbox store (PartnerInboxStore). Defaults to the bounded in-memory store. */
export const PARTNER_INBOX_STORE = Symbol('PARTNER_INBOX_STORE');
/** The logger used by the module (a Nest LoggerService). */
export const PARTNER_LOGGER = Symbol('PARTNER_LOGGER');

/** Versions named by the contract (spec 9.1). */
export const DEFAULT_API_VERSION = '2026-04-14';
/** The RFI routes exist only under this version (provider-facts: Base address and versions). */
export const RFI_API_VERSION = '2026-06-01';
/** DI token of the resolved webhook settings (PartnerWebhookConfig). */
export const PARTNER_WEBHOOK_CONFIG = Symbol('PARTNER_WEBHOOK_CONFIG');
