/**
 * Hooks for running the kit against THIS package's sandbox: its control API stands in for the
 * partner's staff (verifying a user, raising an RFI). Never pass them for the partner.
 */
import { SandboxControlClient } from '../control/control.client';
import type { ConformanceHooks } from './probe.types';

/** `controlUrl`: the sandbox's root URL or its `/__control` URL. */
export function sandboxConformanceHooks(controlUrl: string): ConformanceHooks {
  const control = new SandboxControlClient(controlUrl);
  return {
    async verifyUser(userId) {
      const status = await control.setUserVerificationOutcome(userId, 'approved');
      if (status !== 'VERIFIED') throw new Error(`the sandbox left user ${userId} ${status}`);
    },
    async seedRfi(userId) {
      const rfi = await control.seedRfi({ userId });
      const textItemId = rfi.itemIdsByType.text_short;
      const documentItemId = rfi.itemIdsByType.document;
      if (!textItemId || !documentItemId)
        throw new Error('the seeded RFI lacks a text_short or document item');
      return { rfiId: rfi.rfiId, textItemId, documentItemId };
    },
    setRfiStatus: (rfiId, status) => control.setRfiStatus(rfiId, status),
    expireTokens: () => control.expireTokensNow(),
    async fundVirtualAccount(virtualAccountId) {
      await control.fundVirtualAccount(virtualAccountId);
    },
  };
}
