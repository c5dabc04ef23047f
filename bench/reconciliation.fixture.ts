/**
 * Shared by the reconciliation and replicas benchmarks: many payouts at the sandbox and in the app's
 * database (test/setup/payout-seed.fixture), their state put back between rounds, and the figures'
 * bookkeeping (medians, the JSON line of bench/README's contract).
 */
import { In } from 'typeorm';
import { PayoutEntity } from '../apps/reference-app/src/app-entities.constants';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PAYOUT_MIX, type SeededPayouts } from '../test/setup/payout-seed.fixture';

/** Puts every seeded payout back as the app knew it before any pass (statuses, checks, reads). */
export async function resetSeeded(uow: PartnerUnitOfWork, seeded: SeededPayouts): Promise<void> {
  const byScenario = new Map<string, string[]>();
  for (const [id, name] of seeded.scenarioOf) byScenario.set(name, [...(byScenario.get(name) ?? []), id]);
  const now = new Date();
  for (const [name, ids] of byScenario) {
    const ours = PAYOUT_MIX.find((s) => s.name === name)!.ours;
    for (let at = 0; at < ids.length; at += 1000)
      await uow.run((m) =>
        m.update(
          PayoutEntity,
          { payoutId: In(ids.slice(at, at + 1000)) },
          {
            status: ours.status,
            previousStatus: null,
            referenceNumber: ours.referenceNumber ?? null,
            errorCode: ours.errorCode ?? null,
            lastSource: 'webhook',
            updatedAt: now,
            lastCheckedAt: null,
            nextCheckAt: null,
            resourceReadAt: null,
            checkFailures: 0,
          },
        ),
      );
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const round = (n: number, digits = 3): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** One row of the contract's JSON line (bench/README, /work/notes/bench-contract.md). */
export interface Figure {
  figure: string;
  unit: string;
  ours: number;
  baseline: number | null;
  ratio: number | null;
  target: string;
  pass: boolean;
  rounds: number;
  notes: string;
}

/** The LAST line of stdout: everything else goes to stderr. */
export function printFigures(bench: string, figures: Figure[]): void {
  process.stdout.write(`${JSON.stringify({ bench, figures })}\n`);
}
