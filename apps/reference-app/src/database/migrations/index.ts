import { InitialSchema1763794800000 } from './1763794800000-initial-schema.migration';
import { JobCheckpoint1763881400000 } from './1763881400000-job-checkpoint.migration';
import { SharedReconciliation1764100000000 } from './1764100000000-shared-reconciliation.migration';

/** Checked-in migrations, in order. Run at start (openDataSource); `synchronize` is never used. */
export const MIGRATIONS = [
  InitialSchema1763794800000,
  JobCheckpoint1763881400000,
  SharedReconciliation1764100000000,
];
