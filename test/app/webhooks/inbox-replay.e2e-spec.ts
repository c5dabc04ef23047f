/**
 * A signed body stays valid for ever (spec 6.1.3: the signature covers the body, no time), so the
 * inbox's de-duplication must outlive its retention, and a projection must not move back on an
 * older event. Over a real socket, on a SQLite file and on PostgreSQL.
 */
import { DATABASE_KINDS } from '../../setup/test-database.fixture';
import {
  replayAfterPruning,
  replayDuringPrune,
  staleAfterNewer,
  startReplayWorld,
  type ReplayWorld,
} from './replay.fixture';

jest.setTimeout(60_000);

describe.each(DATABASE_KINDS)('replays and stale events on %s', (kind) => {
  let world: ReplayWorld;
  beforeAll(async () => {
    world = await startReplayWorld(kind, `replay-${kind}`);
  });
  afterAll(async () => world?.close());

  it('a body replayed after its entry was pruned is a duplicate: the user stays VERIFIED; a new event still applies', async () => {
    const seen = await replayAfterPruning(world);
    expect(seen).toEqual({
      before: 'REVIEW',
      verified: 'VERIFIED',
      pruned: expect.any(Number) as number,
      replayAnswer: 200,
      replayStored: null,
      afterReplay: 'VERIFIED',
      afterNew: 'ACTIVE',
    });
    expect(seen.pruned).toBeGreaterThanOrEqual(2);
  });

  it('an event older than the one applied (its updated_at) changes neither the user nor the virtual account', async () => {
    expect(await staleAfterNewer(world)).toEqual({ user: 'VERIFIED', virtualAccount: 'approved' });
  });

  (kind === 'postgres' ? it : it.skip)(
    'a replay racing the prune of its entry waits for the batch and is a duplicate (PostgreSQL)',
    async () => {
      expect(await replayDuringPrune(world)).toMatchObject({
        before: 'REVIEW',
        verified: 'VERIFIED',
        replayAnswer: 200,
        replayStored: null,
        afterReplay: 'VERIFIED',
      });
    },
  );
});
