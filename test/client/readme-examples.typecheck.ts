/**
 * Not a test: `npm run typecheck` compiles this file, so the README's client examples ("Calling the
 * partner", "Errors", "Events", "Validation before I/O") break the build when the API drifts from
 * them. Keep it a verbatim copy of those code blocks, wrapped only to supply their free variables.
 */
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import {
  PartnerConflictError,
  PartnerLocalValidationError,
  PartnerPaymentsClient,
  PartnerRfiAnswerError,
  validateRfiAnswers,
  type Rfi,
  type RfiAnswerInput,
} from '@partner-payments/nestjs';

declare const depositId: string;
declare const myStoredKey: string;
declare const rfiId: string;
declare const itemId: string;
declare const documentItemId: string;
declare const documentId: string;
declare const pngBytes: Buffer;
declare const someReadable: Readable;
declare const answers: RfiAnswerInput[];
declare const rfi: Rfi;
declare const partner: PartnerPaymentsClient;
declare const client: PartnerPaymentsClient;
declare const histogram: { observe(labels: Record<string, unknown>, value: number | undefined): void };
declare function markItem(itemId: string, message: string): void;
declare function closeRfiLocally(rfiId: string): void;

@Injectable()
export class Onboarding {
  constructor(private readonly partner: PartnerPaymentsClient) {}

  async run() {
    // Users (POST/GET/PUT /v1/users, liveness link)
    const user = await this.partner.users.create({
      type: 'individual',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      source_of_funds: 'salary',
      metadata: { crm_id: 'c-42' },
    });
    await this.partner.users.update(user.userId, { email: 'ada@lovelace.dev' }); // PUT
    const page = await this.partner.users.list({ limit: 100, offset: 0 }); // { data, total, limit, offset, hasMore }
    for await (const u of this.partner.users.iterate()) console.log(u.userId, u.status);
    const links = await this.partner.users.createLivenessLink(user.userId); // [{ referenceId, url, raw }]

    // Recipients: rail data nested under `account`, checked before I/O (countries are alpha-2 here)
    const { recipient, created } = await this.partner.recipients.createOrGet({
      user_id: user.userId, // need not be VERIFIED
      type: 'individual', // optional, the default
      first_name: 'Bob',
      last_name: 'Payee',
      email: 'bob@payee.example', // WIRE, ACH, INSTANT_PAY, SWIFT: email and address required
      address: { street_name: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      account: {
        account_type: 'WIRE',
        routing_number: '021000021',
        account_number: '123456789',
        type: 'checking',
        bank_name: 'B',
        bank_address: { street_name: '270 Park Ave', city: 'New York', state: 'NY', country: 'US' },
      },
    });
    const { recipients, total } = await this.partner.recipients.list(user.userId, {
      metadata: { team: 'ops' },
    });
    await this.partner.recipients.get(recipient.recipient_id);

    // Virtual accounts and deposits
    const va = await this.partner.virtualAccounts.create({ user_id: user.userId, bank: 'bank_a' }); // 409 for a second one
    await this.partner.virtualAccounts.get(String(va.virtual_account_id));
    await this.partner.virtualAccounts.getDeposit(String(va.virtual_account_id), depositId);
    await this.partner.virtualAccounts.listLiquidationAddresses(String(va.virtual_account_id)); // a bare array, [] when none

    // Payouts: amount is a decimal string
    const payout = await this.partner.payouts.create(
      String(va.virtual_account_id),
      {
        amount: '100.00',
        currency: 'USD',
        recipient_id: recipient.recipient_id,
        extra_info: { memo: 'inv 42' },
      },
      { idempotencyKey: myStoredKey }, // optional: your own key makes a retry after a crash safe too
    );
    const fresh = await this.partner.payouts.get(payout.payoutId); // { payoutId, status: 'COMPLETED', rawStatus, referenceNumber, errorCode, ... }
    const listed = await this.partner.payouts.list({ user_id: user.userId, status: 'FAILED', limit: 50 }); // weak fact: may not exist everywhere

    // Client configuration and versioning
    const config = await this.partner.clientConfig.get(); // data of { success, data }: client, client_wallets, client_vault, authorizedBanks
    const pin = await this.partner.versioning.upgrade('2026-04-14'); // { previousVersion, currentVersion, raw }

    // Reference data, kept in memory for `referenceDataCacheTtlMs` (default 24 h)
    const { data: countries } = await this.partner.referenceData.countries(); // [{ alpha3, name, subdivisions }]
    const { banks } = await this.partner.referenceData.banks('CO'); // [{ code, name }]; the partner lists CO only today

    // RFIs (X-Api-Version 2026-06-01 on every call)
    const rfi = await this.partner.rfis.get(rfiId);
    await this.partner.rfis.answerItems(rfiId, [{ item_id: itemId, answer_value: 'Acme Inc.' }], {
      knownItems: rfi.items,
    });
    await this.partner.rfis.uploadDocuments(
      rfiId,
      documentItemId,
      [
        { path: '/tmp/proof.pdf' }, // streamed from disk
        { buffer: pngBytes, fileName: 'scan.png', contentType: 'image/png' },
        { stream: someReadable, fileName: 'id.jpg', contentType: 'image/jpeg', knownLength: 123456 },
      ],
      { fetchItem: true },
    ); // checks mime_types / max_files against the item before sending
    const file = await this.partner.rfis.downloadDocument(rfiId, documentItemId, documentId);
    file.stream.pipe(createWriteStream(`/tmp/${file.fileName}`)); // streamed, never buffered whole
    for await (const r of this.partner.rfis.iterate({ user_id: user.userId })) console.log(r.id, r.status);

    // (not in the README) the values above are typed, not `any`
    const typed: [boolean, number, string, string | null, string[]] = [
      created,
      total,
      fresh.status,
      pin.currentVersion,
      config.authorizedBanks,
    ];
    const reference: [string, string] = [countries[0].alpha3, banks[0].code];
    return { page, links, recipients, listed, typed, reference };
  }
}

export async function errorsExample(): Promise<void> {
  try {
    await partner.rfis.answerItems(rfiId, answers);
  } catch (e) {
    if (e instanceof PartnerRfiAnswerError)
      for (const { itemId, message } of e.itemErrors) markItem(itemId, message);
    else if (e instanceof PartnerConflictError) closeRfiLocally(rfiId);
    else throw e;
  }
}

export function eventsExample(): void {
  client.http.events$.subscribe((e) => {
    if (e.type === 'response') histogram.observe({ method: e.method, status: e.status }, e.durationMs);
  });
}

export function validationExample(): void {
  try {
    validateRfiAnswers([{ item_id: itemId, answer_value: 'way too long for this question' }], rfi.items);
  } catch (e) {
    if (e instanceof PartnerLocalValidationError) {
      // e.fieldErrors: [{ field: 'items[0].answer_value', message: 'must be at most 20 characters (got 30)' }]
    }
  }
}
