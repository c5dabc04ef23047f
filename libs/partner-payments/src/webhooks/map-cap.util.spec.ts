import { MapCap } from './map-cap.util';

describe('MapCap', () => {
  it('keeps the newest `max` keys in insertion order across many evictions', () => {
    const map = new Map<number, number>();
    const cap = new MapCap(map, 100);
    for (let i = 0; i < 25_000; i += 1) {
      map.set(i, i);
      cap.trim();
      expect(map.size).toBe(Math.min(i + 1, 100));
    }
    expect([...map.keys()]).toEqual(Array.from({ length: 100 }, (_, k) => 24_900 + k));
  });

  it('evicts the least recently set key when callers re-set keys (LRU), not a stale one', () => {
    const map = new Map<string, number>();
    const cap = new MapCap(map, 3);
    for (const k of ['a', 'b', 'c']) map.set(k, 0);
    map.set('d', 0);
    cap.trim(); // evicts a; the cursor now sits after a
    map.delete('b'); // b re-set: newest
    map.set('b', 1);
    map.set('e', 0);
    cap.trim();
    expect([...map.keys()]).toEqual(['d', 'b', 'e']);
    map.set('f', 0);
    cap.trim();
    expect([...map.keys()]).toEqual(['b', 'e', 'f']);
  });

  it('keeps working after the map is emptied or its keys are deleted by others', () => {
    const map = new Map<string, number>();
    const cap = new MapCap(map, 2);
    for (const k of ['a', 'b', 'c']) map.set(k, 0);
    cap.trim();
    expect([...map.keys()]).toEqual(['b', 'c']);
    map.clear();
    for (const k of ['x', 'y', 'z']) map.set(k, 0);
    cap.trim();
    expect([...map.keys()]).toEqual(['y', 'z']);
    map.delete('y');
    map.delete('z');
    for (const k of ['p', 'q', 'r']) map.set(k, 0);
    cap.trim();
    expect([...map.keys()]).toEqual(['q', 'r']);
  });
});
