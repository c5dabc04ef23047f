/**
 * The fixtures probes share (a user, a recipient, a virtual account, an RFI, ...): each made once
 * per run, on first need, and named in the report with what can (or cannot) be cleaned up.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sampleFile } from '../resources/rfis/sample-files.util';
import { ConformanceContext, ProbeSkipped } from './conformance-context.service';
import { fixtureRecipient, fixtureUser } from './probe-bodies.util';
import type { ConformanceRfi, KeyedCreate } from './probe.types';
import { files, uploadTo } from './probes/rfis/rfi-requests.util';

/** The id a create answered, under the first of `fields` that holds a string. */
const idIn = (body: unknown, fields: readonly string[]): string | undefined =>
  fields
    .map((f) => (body as Record<string, unknown> | undefined)?.[f])
    .find((v): v is string => typeof v === 'string');

/**
 * A fixture whose create the partner may refuse for reasons of its own (funds, an account not open
 * yet): the probes that need it are skipped, saying why; the create probe reports the refusal.
 */
const skipOnFailure = <T>(made: Promise<T>, why: string): Promise<T> =>
  made.catch((error: Error) => {
    throw new ProbeSkipped(`${why}: ${error.message}`);
  });

export class ConformanceFixtures extends ConformanceContext {
  /**
   * POSTs `body` to `path` under a fresh Idempotency-Key (spec 4.7) and answers what made it; the
   * id is read from `idFields` in order (a renamed id shows up in one probe, not in every later one).
   */
  private async keyedCreate(
    what: string,
    path: string,
    body: Record<string, unknown>,
    idFields: readonly string[],
    version?: string,
  ): Promise<KeyedCreate> {
    const idempotencyKey = randomUUID();
    const answer = await this.send({ method: 'POST', path, body, idempotencyKey, version });
    const id = idIn(answer.body, idFields);
    // Any 2xx will do: a changed success status is the create probe's divergence, not every later one's.
    if (answer.status < 200 || answer.status > 299 || !id) {
      throw new Error(`fixture ${what}: POST answered ${answer.status}`);
    }
    return { id, path, idempotencyKey, body, ...(version ? { version } : {}) };
  }

  user() {
    return this.shared('user', async () => {
      this.requireWrites('a user');
      return this.createUser('fixture:user');
    });
  }

  private async createUser(probe: string): Promise<KeyedCreate> {
    const user = await this.keyedCreate('user', '/v1/users', fixtureUser(this.runId), ['id', 'user_id']);
    this.created('user', user.id, probe);
    return user;
  }

  /** A WIRE recipient of `userId`. */
  private async createRecipient(userId: string, probe: string): Promise<KeyedCreate> {
    const body = fixtureRecipient(userId, this.runId);
    const recipient = await this.keyedCreate('recipient', '/v1/recipients', body, ['recipient_id']);
    this.created('recipient', recipient.id, probe);
    return recipient;
  }

  recipient() {
    return this.shared('recipient', async () =>
      this.createRecipient((await this.user()).id, 'fixture:recipient'),
    );
  }

  verifiedUser() {
    return this.shared('verifiedUser', async () => {
      if (this.options.verifiedUserId) return { id: this.options.verifiedUserId };
      const verify = this.options.hooks?.verifyUser;
      if (!verify) {
        throw new ProbeSkipped(
          'needs a VERIFIED user: pass --verified-user <id> (the partner verifies users by hand, evidence §3)',
        );
      }
      this.requireWrites('a VERIFIED user');
      const user = await this.createUser('fixture:verified-user');
      await verify(user.id);
      return { id: user.id };
    });
  }

  clientUuid() {
    return this.shared('clientUuid', async () => {
      const uuid = this.options.credentials.clientUuid;
      if (!uuid)
        throw new ProbeSkipped('needs your client UUID (PARTNER_CLIENT_UUID, credentials.clientUuid)');
      return uuid;
    });
  }

  /** The run's virtual account at the first authorized bank, opened and credited when a hook can. */
  virtualAccount() {
    return this.shared('virtualAccount', async () => {
      const va = await this.createVirtualAccount(0, 'fixture:virtual-account');
      await this.options.hooks?.fundVirtualAccount?.(va.id);
      return va;
    });
  }

  /** The run's virtual account, known to be open and funded (only a hook can make it so). */
  activeVirtualAccount() {
    return this.shared('activeVirtualAccount', async () => {
      if (!this.options.hooks?.fundVirtualAccount) {
        throw new ProbeSkipped(
          "needs an open, funded virtual account: a new one stays activating until the partner's staff open it (evidence §5)",
        );
      }
      return this.virtualAccount();
    });
  }

  /** A second virtual account (the second authorized bank), left as the partner leaves a new one. */
  newVirtualAccount() {
    return this.shared('newVirtualAccount', () =>
      this.createVirtualAccount(1, 'fixture:new-virtual-account'),
    );
  }

  /** The account's `index`th authorized bank (spec 2.4), read from its client configuration. */
  authorizedBank(index: number) {
    return this.shared(`bank:${index}`, async () => {
      const config = await this.send({ method: 'GET', path: `/v1/clients/${await this.clientUuid()}` });
      const banks = (config.body as { data?: { authorizedBanks?: unknown } } | undefined)?.data
        ?.authorizedBanks;
      const bank = Array.isArray(banks) ? banks[index] : undefined;
      if (typeof bank !== 'string') {
        throw new ProbeSkipped(`needs ${index + 1} authorized bank(s) (spec 2.4 authorizedBanks)`);
      }
      return bank;
    });
  }

  private async createVirtualAccount(bankIndex: number, probe: string) {
    const user = await this.verifiedUser();
    this.requireWrites('a virtual account');
    const bank = await this.authorizedBank(bankIndex);
    const body = { user_id: user.id, type: 'US_BANK', bank, metadata: { conformance_run: this.runId } };
    const va = await this.keyedCreate('virtual account', '/v1/virtual-accounts', body, [
      'virtual_account_id',
      'id',
    ]);
    this.created('virtual_account', va.id, probe, 'not deletable: no DELETE route is documented');
    return { ...va, userId: user.id };
  }

  /** A WIRE recipient of the VERIFIED user (a payout goes to a recipient of the account's user). */
  payee() {
    return this.shared('payee', async () =>
      this.createRecipient((await this.virtualAccount()).userId, 'fixture:payee'),
    );
  }

  payout() {
    return this.shared('payout', async () => {
      const va = await this.activeVirtualAccount();
      const body = { recipient_id: (await this.payee()).id, amount: '10.00', currency: 'USD' };
      const path = `/v1/virtual-accounts/${va.id}/payout`;
      const payout = await skipOnFailure(
        this.keyedCreate('payout', path, body, ['id']),
        'no payout to read (funds not usable? see payouts.create)',
      );
      this.created('payout', payout.id, 'fixture:payout', 'not cancellable through the API');
      return payout;
    });
  }

  /** evidence §5 [T2][D for-ai-agents]: `{network, token, recipient_id}`, keyed; spec 4.6: versioned. */
  liquidationAddress() {
    return this.shared('liquidationAddress', async () => {
      const va = await this.virtualAccount();
      const body = { network: 'solana', token: 'USDC', recipient_id: (await this.payee()).id };
      const path = `/v1/virtual-accounts/${va.id}/liquidation-address`;
      const address = await skipOnFailure(
        this.keyedCreate('liquidation address', path, body, ['id'], '2026-04-14'),
        'no liquidation address to replay (see virtual-accounts.liquidation-address.create)',
      );
      this.created(
        'liquidation_address',
        address.id,
        'fixture:liquidation-address',
        'not deletable: no DELETE route is documented',
      );
      return address;
    });
  }

  /** Raises an RFI on the run user through the hook (only the partner raises RFIs). */
  private async seedRfi(why: string): Promise<ConformanceRfi> {
    const seed = this.options.hooks?.seedRfi;
    if (!seed) throw new ProbeSkipped(`needs ${why} (only the partner raises RFIs)`);
    return seed((await this.user()).id);
  }

  rfi() {
    return this.shared('rfi', async () => {
      const rfi = await this.seedRfi('an RFI with a text and a document item');
      this.created('rfi', rfi.rfiId, 'fixture:rfi', 'closes on its own at the partner (due_at)');
      return rfi;
    });
  }

  rfiIn(status: 'resolved' | 'withdrawn') {
    return this.shared(`rfi:${status}`, async () => {
      const setRfiStatus = this.options.hooks?.setRfiStatus;
      if (!setRfiStatus)
        throw new ProbeSkipped(`needs an RFI that is ${status} (only the partner closes RFIs)`);
      const rfi = await this.seedRfi(`an RFI that is ${status}`);
      await setRfiStatus(rfi.rfiId, status);
      this.created('rfi', rfi.rfiId, `fixture:rfi-${status}`, `${status} by the hook`);
      return rfi;
    });
  }

  rfiDocument() {
    return this.shared('rfiDocument', async () => {
      const rfi = await this.seedRfi('an RFI with a document item');
      this.created('rfi', rfi.rfiId, 'fixture:rfi-document', 'closes on its own at the partner (due_at)');
      const pdf = sampleFile('application/pdf');
      const answer = await this.send(
        uploadTo(rfi.rfiId, rfi.documentItemId, files('conformance-link.pdf', 'application/pdf', pdf)),
      );
      const documents = (answer.body as { item?: { documents?: unknown } } | undefined)?.item?.documents;
      const documentId = Array.isArray(documents) ? idIn(documents[0], ['document_id']) : undefined;
      if (answer.status !== 201 || !documentId) {
        throw new Error(`fixture document: the upload answered ${answer.status}`);
      }
      this.created(
        'document',
        documentId,
        'fixture:rfi-document',
        'the last file of an answered item cannot be removed (evidence §7)',
      );
      const sha256 = createHash('sha256').update(pdf).digest('hex');
      return { rfiId: rfi.rfiId, itemId: rfi.documentItemId, documentId, sha256 };
    });
  }
}
