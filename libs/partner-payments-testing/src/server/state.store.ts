import { newId, nowIso, randomHex } from './ids.util';
import { KNOWN_VERSIONS } from './versioning.util';
import type {
  ClientAccount,
  DepositRecord,
  LiquidationAddressRecord,
  Metadata,
  RecipientRecord,
  UserRecord,
  VerificationOutcome,
  VirtualAccountRecord,
} from './state.types';
import type { PayoutRecord, QuoteRecord } from './payout-state.types';
import type { RfiRecord } from './rfi-state.types';

export interface AccountInput {
  apiKey?: string;
  clientId?: string;
  password?: string;
  clientUuid?: string;
  companyName?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  authorizedBanks?: string[];
  defaultUserMetadata?: Metadata;
  pinnedVersion?: string;
}

interface TokenRecord {
  clientUuid: string;
  expiresAt: number;
}

/** Every resource of the simulated partner, in memory. Accounts survive `resetResources`. */
export class StateStore {
  readonly accounts = new Map<string, ClientAccount>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly users = new Map<string, UserRecord>();
  readonly recipients = new Map<string, RecipientRecord>();
  readonly virtualAccounts = new Map<string, VirtualAccountRecord>();
  readonly deposits = new Map<string, DepositRecord>();
  readonly liquidationAddresses = new Map<string, LiquidationAddressRecord>();
  readonly payouts = new Map<string, PayoutRecord>();
  readonly quotes = new Map<string, QuoteRecord>();
  readonly rfis = new Map<string, RfiRecord>();
  nextVerificationOutcome: VerificationOutcome | null = null;
  primaryClientUuid = '';
  private nextAccountNumericId = 1001;
  private readonly initial = new Map<
    string,
    Pick<ClientAccount, 'pinnedVersion' | 'wallet' | 'vault' | 'authorizedBanks'>
  >();

  createAccount(input: AccountInput): ClientAccount {
    const now = nowIso();
    // A pin that is not a version would compare as a string against real ones ('garbage' >
    // '2026-06-01' opens the RFI routes): refuse it at setup.
    if (input.pinnedVersion !== undefined && !KNOWN_VERSIONS.includes(input.pinnedVersion))
      throw new Error(
        `pinnedVersion must be one of ${KNOWN_VERSIONS.join(', ')}, got ${String(input.pinnedVersion)}`,
      );
    const clientUuid = (input.clientUuid ?? newId()).toLowerCase();
    if (this.accounts.has(clientUuid)) throw new Error(`client ${clientUuid} already exists`);
    const account: ClientAccount = {
      id: this.nextAccountNumericId++,
      clientUuid,
      apiKey: input.apiKey ?? `sk_sandbox_${randomHex(16)}`,
      clientId: input.clientId ?? `client_${randomHex(6)}`,
      password: input.password ?? randomHex(12),
      companyName: input.companyName ?? 'Sandbox Client Inc.',
      pinnedVersion: input.pinnedVersion,
      // The partner's default is none (spec 2.4 `data.authorizedBanks`: default []); its account
      // manager authorizes banks. A virtual account on any other bank answers 400 (evidence §5).
      authorizedBanks: [...(input.authorizedBanks ?? [])],
      defaultUserMetadata: { ...(input.defaultUserMetadata ?? {}) },
      webhookUrl: input.webhookUrl,
      webhookSecret: input.webhookSecret ?? `whsec_${randomHex(16)}`,
      previousWebhookSecret: undefined,
      wallet: null,
      vault: null,
      createdAt: now,
      updatedAt: now,
    };
    for (const other of this.accounts.values()) {
      if (other.apiKey === account.apiKey) throw new Error('apiKey already used by another sandbox client');
    }
    this.accounts.set(clientUuid, account);
    this.initial.set(clientUuid, {
      pinnedVersion: account.pinnedVersion,
      wallet: null,
      vault: null,
      authorizedBanks: [...account.authorizedBanks],
    });
    if (!this.primaryClientUuid) this.primaryClientUuid = clientUuid;
    return account;
  }

  account(clientUuid?: string): ClientAccount {
    const account = this.accounts.get(clientUuid ?? this.primaryClientUuid);
    if (!account) throw new Error(`unknown sandbox client ${clientUuid ?? '(primary)'}`);
    return account;
  }

  accountByApiKey(apiKey: string | undefined): ClientAccount | undefined {
    if (!apiKey) return undefined;
    for (const account of this.accounts.values()) if (account.apiKey === apiKey) return account;
    return undefined;
  }

  /** Records a token by its `jti` (the signed JWT itself is made by the auth route). */
  issueToken(clientUuid: string, ttlSeconds: number): { jti: string; expiresAt: number } {
    const jti = newId();
    const expiresAt = Date.now() + ttlSeconds * 1000;
    this.tokens.set(jti, { clientUuid, expiresAt });
    return { jti, expiresAt };
  }

  /** The account a token's `jti` belongs to, or undefined when unknown or expired (spec 5.7). */
  tokenAccount(jti: string): string | undefined {
    const record = this.tokens.get(jti);
    if (!record || record.expiresAt <= Date.now()) return undefined;
    return record.clientUuid;
  }

  expireAllTokens(): void {
    for (const record of this.tokens.values()) record.expiresAt = 0;
  }

  resetResources(): void {
    for (const map of [
      this.tokens,
      this.users,
      this.recipients,
      this.virtualAccounts,
      this.deposits,
      this.liquidationAddresses,
      this.payouts,
      this.quotes,
      this.rfis,
    ] as Map<string, unknown>[]) {
      map.clear();
    }
    this.nextVerificationOutcome = null;
    for (const [uuid, init] of this.initial) {
      const account = this.accounts.get(uuid);
      if (!account) continue;
      account.pinnedVersion = init.pinnedVersion;
      account.wallet = init.wallet;
      account.vault = init.vault;
      account.authorizedBanks = [...init.authorizedBanks];
    }
  }
}
