/** The counted table's rendering (tally.fixture.ts): what the e2e global teardown prints. */
import { renderTallyTable } from './tally.fixture';

describe('the reliability table', () => {
  it('has one row per suite and database, in a stable order, a total, and only the columns used', () => {
    const table = renderTallyTable([
      { suite: 'b suite', database: 'sqlite', lost: 0, eventsSent: 3 },
      { suite: 'a suite', database: 'sqlite', wrong: 1, inputsTried: 2 },
      { suite: 'b suite', database: 'sqlite', lost: 1, eventsSent: 4 },
      { suite: 'a suite', database: 'postgres', inputsTried: 5 },
    ]);
    expect(table.split('\n')).toEqual([
      '| suite | database | inputs tried | wrong | events sent | lost |',
      '| --- | --- | --- | --- | --- | --- |',
      '| a suite | postgres | 5 |  |  |  |',
      '| a suite | sqlite | 2 | 1 |  |  |',
      '| b suite | sqlite |  |  | 7 | 1 |',
      '| **total** |  | 7 | 1 | 7 | 1 |',
    ]);
  });
});
