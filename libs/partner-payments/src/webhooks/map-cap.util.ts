/**
 * Keeps a Map to at most `max` entries, evicting the oldest in the Map's order (insertion order;
 * a caller that deletes and re-sets a key makes it the newest, which gives least-recently-used).
 *
 * Why not `map.delete(map.keys().next().value)`: V8 leaves a deleted entry as a hole in the table
 * until the table is rebuilt, and a NEW iterator walks every hole before it reaches the first live
 * key. Used as a queue at 10,000 entries that walk is paid on every eviction, on the hot path of
 * every processed webhook (bench/README.md, webhook-ingest). One iterator kept across evictions
 * resumes after the last key it gave: every key before it was deleted here, and keys set later
 * come after it, so its next key is the oldest.
 */
export class MapCap<K> {
  private cursor: Iterator<K> | null = null;

  constructor(
    private readonly map: Map<K, unknown>,
    private readonly max: number,
  ) {}

  /** Evicts the oldest entries until the map holds at most `max`. */
  trim(): void {
    while (this.map.size > this.max) {
      let next = this.cursor?.next();
      // A finished iterator stays finished; start again from the front (also after map.clear()).
      if (!next || next.done) {
        this.cursor = this.map.keys();
        next = this.cursor.next();
        if (next.done) return;
      }
      this.map.delete(next.value);
    }
  }
}
