/**
 * Hooks for running the kit against THIS package's sandbox: its control API stands in for the
 * partner's staff (verifying a user, raising an RFI). Never pass them for the partner.
 */
import { randomUUID } from 'node:crypto';
import { PartnerSandboxControlClient } from '../control/control.client';
import { ALL_ANSWER_TYPES } from '../resources/rfis/rfi-seed.service';
import type { ConformanceHooks } from './probe.types';
import { fixtureUser } from './probe-bodies.util';

/**
 * One item of every answer_type with its default answer_spec (the default ubo_link already has a
 * url), plus a ubo_link item with applicant_id and person_id and no url, for which a link can be
 * made (evidence §7 [T1 REVISION-DOCS §3.1]).
 */
const conformanceRfiItems = () => [
  ...ALL_ANSWER_TYPES.map((answer_type) => ({ answer_type })),
  {
    answer_type: 'ubo_link' as const,
    answer_spec: { applicant_id: `applicant-${randomUUID()}`, person_id: randomUUID() },
  },
];

/**
 * A user made under a new client of the sandbox, through its API at `{root}/sandbox` as that
 * client would make it: another tenant's resource (evidence §11 N14).
 */
async function userOfAnotherClient(control: PartnerSandboxControlClient, controlUrl: string) {
  const other = await control.createClient();
  const api = `${controlUrl.replace(/\/+$/, '').replace(/\/(__control|sandbox)$/, '')}/sandbox`;
  const call = async (path: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': other.apiKey, ...headers },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`the other client's POST ${path} answered ${response.status}`);
    return (await response.json()) as { data?: { access_token?: string }; id?: string };
  };
  const login = await call('/auth', { client_id: other.clientId, password: other.password }, {});
  const user = await call('/v1/users', fixtureUser('foreign-tenant'), {
    authorization: `Bearer ${login.data?.access_token}`,
    'idempotency-key': randomUUID(),
  });
  return user.id as string;
}

/** `controlUrl`: the sandbox's root URL or its `/__control` URL. */
export function sandboxConformanceHooks(controlUrl: string): ConformanceHooks {
  const control = new PartnerSandboxControlClient(controlUrl);
  return {
    foreignUser: () => userOfAnotherClient(control, controlUrl),
    async pointWebhooksAt(url, clientUuid) {
      const previous = await control.webhookUrl(clientUuid);
      await control.setWebhookUrl(url, clientUuid);
      return () => control.setWebhookUrl(previous, clientUuid);
    },
    async verifyUser(userId) {
      const status = await control.setUserVerificationOutcome(userId, 'approved');
      if (status !== 'VERIFIED') throw new Error(`the sandbox left user ${userId} ${status}`);
    },
    async seedRfi(userId) {
      const rfi = await control.seedRfi({ userId, items: conformanceRfiItems() });
      const textItemId = rfi.itemIdsByType.text_short;
      const documentItemId = rfi.itemIdsByType.document;
      if (!textItemId || !documentItemId)
        throw new Error('the seeded RFI lacks a text_short or document item');
      const ubo = rfi.items.filter((i) => i.answer_type === 'ubo_link');
      const hasUrl = (i: (typeof ubo)[number]) => typeof i.answer_spec.url === 'string';
      return {
        rfiId: rfi.rfiId,
        textItemId,
        documentItemId,
        uboLinkItemId: ubo.find((i) => !hasUrl(i))?.item_id,
        uboLinkWithUrlItemId: ubo.find(hasUrl)?.item_id,
      };
    },
    setRfiStatus: (rfiId, status) => control.setRfiStatus(rfiId, status),
    expireTokens: () => control.expireTokensNow(),
    async fundVirtualAccount(virtualAccountId) {
      await control.fundVirtualAccount(virtualAccountId);
    },
  };
}
