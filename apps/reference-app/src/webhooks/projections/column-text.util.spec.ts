import { columnText, eventDerivedKey } from './column-text.util';

describe('columnText', () => {
  it('drops U+0000, replaces lone surrogates and cuts to the column length in characters', () => {
    expect(columnText('a\u0000b\ud800c', 10)).toBe('ab\ufffdc');
    expect(columnText('é'.repeat(5), 3)).toBe('ééé');
    expect(columnText('😀😀😀', 2)).toBe('😀😀'); // never half a surrogate pair
    expect(columnText(undefined, 5)).toBeNull();
  });
});

describe('eventDerivedKey', () => {
  it('keeps a short plain id readable', () => {
    expect(eventDerivedKey('event:', 'evt_123')).toBe('event:evt_123');
  });

  it('keys a long, NUL or lone-surrogate id on its digest, within the limit, distinct per id', () => {
    const keys = ['i'.repeat(100), 'a\u0000b', 'lone_\ud800', 'lone_\udc00'].map((id) =>
      eventDerivedKey('event:', id),
    );
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(64);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys[0]).toMatch(/^event:sha256:[A-Za-z0-9_-]{43}$/);
  });
});
