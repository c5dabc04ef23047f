import { IdempotencyStore } from './idempotency.store';

describe('IdempotencyStore', () => {
  const key = '3f0e2a9c-4b1d-4c8e-9f2a-1b2c3d4e5f60';

  it('replays the stored answer for the same account, route and key', () => {
    const store = new IdempotencyStore();
    expect(store.begin('acc', 'POST /v1/users', key)).toBe(true);
    store.finish('acc', 'POST /v1/users', key, { status: 201, body: { user_id: 'u1' } });
    expect(store.get('acc', 'POST /v1/users', key)).toEqual({ status: 201, body: { user_id: 'u1' } });
  });

  it('scopes keys by route and by account', () => {
    const store = new IdempotencyStore();
    store.begin('acc', 'POST /v1/users', key);
    store.finish('acc', 'POST /v1/users', key, { status: 201, body: 1 });
    expect(store.get('acc', 'POST /v1/recipients', key)).toBeUndefined();
    expect(store.get('other', 'POST /v1/users', key)).toBeUndefined();
  });

  it('refuses a second concurrent request with the same key until the first finishes', () => {
    const store = new IdempotencyStore();
    expect(store.begin('acc', 'r', key)).toBe(true);
    expect(store.begin('acc', 'r', key)).toBe(false);
    store.finish('acc', 'r', key);
    expect(store.begin('acc', 'r', key)).toBe(true);
  });

  it('does not store failed answers, so a corrected retry can run', () => {
    const store = new IdempotencyStore();
    store.begin('acc', 'r', key);
    store.finish('acc', 'r', key, { status: 400, body: { code: 'validation_error' } });
    expect(store.get('acc', 'r', key)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('remembers a failed answer only as a failure of that body (evidence §11 N20), forgotten on success', () => {
    const store = new IdempotencyStore();
    expect(store.failure('acc', 'r', key)).toBeUndefined();
    store.begin('acc', 'r', key);
    store.finish('acc', 'r', key, { status: 400, body: {}, requestSha256: 'a' });
    expect(store.failure('acc', 'r', key)).toEqual({ requestSha256: 'a' });
    store.begin('acc', 'r', key);
    store.finish('acc', 'r', key, { status: 201, body: {}, requestSha256: 'a' });
    expect(store.failure('acc', 'r', key)).toBeUndefined();
  });

  it('clear forgets everything', () => {
    const store = new IdempotencyStore();
    store.begin('acc', 'r', key);
    store.finish('acc', 'r', key, { status: 201, body: {} });
    store.clear();
    expect(store.get('acc', 'r', key)).toBeUndefined();
  });
});
