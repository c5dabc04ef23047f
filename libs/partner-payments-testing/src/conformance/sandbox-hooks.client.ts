/**
 * Hooks for running the kit against THIS package's sandbox: its control API stands in for the
 * partner's staff (verifying a user, raising an RFI). Never pass them for the partner.
 */
import { randomUUID } from 'node:crypto';
import { PartnerSandboxControlClient } from '../control/control.client';
import { ALL_ANSWER_TYPES } from '../resources/rfis/rfi-seed.service';
import type { ConformanceHooks } from './probe.types';

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

/** `controlUrl`: the sandbox's root URL or its `/__control` URL. */
export function sandboxConformanceHooks(controlUrl: string): ConformanceHooks {
  const control = new PartnerSandboxControlClient(controlUrl);
  return {
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
