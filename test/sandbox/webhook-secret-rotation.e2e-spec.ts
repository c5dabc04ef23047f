import { signPartnerWebhook, startPartnerSandbox } from '@partner-payments/testing';
import { individual, startReceiver, useWorld } from './sandbox.fixture';

describe('sandbox: webhook secret rotation (evidence §9)', () => {
  const world = useWorld();

  it('rotation with { overlapMs: 0 } (opt-in): the new secret signs at once; signNextWithPreviousSecret and signWithPreviousSecret still sign with the previous one', async () => {
    await expect(world.sandbox.control.signNextWithPreviousSecret()).rejects.toThrow('rotate');
    const { secret, previousSecret, previousSecretSignsUntil } =
      await world.sandbox.control.rotateWebhookSecret('whsec_rotated', undefined, { overlapMs: 0 });
    expect(secret).toBe('whsec_rotated');
    expect(previousSecret).toBe('whsec_e2e_secret');
    expect(Date.parse(previousSecretSignsUntil)).toBeLessThanOrEqual(Date.now()); // no window
    expect(world.sandbox.webhookSecret).toBe('whsec_rotated');
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'new' });
    await world.sandbox.control.signNextWithPreviousSecret(1);
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'old' });
    await world.sandbox.control.emitEvent(
      'user.updated',
      { user_id: 'prev-flag' },
      { signWithPreviousSecret: true },
    );
    const got = await world.receiver.waitFor(3);
    expect(got.map((g) => g.validSignature)).toEqual([false, true, true]);
    expect(got[0].headers['x-signature-sha256']).toBe(signPartnerWebhook(got[0].raw, 'whsec_rotated'));
    world.receiver.secrets.push('whsec_rotated');
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'after' });
    await world.receiver.waitFor(4);
    expect(world.receiver.received[3].validSignature).toBe(true);
    expect((await world.sandbox.control.deliveries()).map((d) => d.signedWithPreviousSecret)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('rotation, by default: for 60 s deliveries are still signed with the previous secret (evidence §9), not the new one', async () => {
    const before = Date.now();
    const rotation = await world.sandbox.control.rotateWebhookSecret('whsec_rotated');
    const until = Date.parse(rotation.previousSecretSignsUntil);
    expect(until).toBeGreaterThanOrEqual(before + 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60_000);
    // Deliveries the app causes (a new user) and control-emitted ones alike.
    await world.api.call('POST', '/v1/users', { body: individual() });
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'in-window' });
    const got = await world.receiver.waitFor(4); // user.created, two status changes, user.updated
    for (const r of got) {
      // The receiver knows only the old secret: it verifies them all.
      expect(r.validSignature).toBe(true);
      expect(r.headers['x-signature-sha256']).toBe(signPartnerWebhook(r.raw, 'whsec_e2e_secret'));
      expect(r.headers['x-signature-sha256']).not.toBe(signPartnerWebhook(r.raw, 'whsec_rotated'));
    }
    // A receiver configured with the new secret alone refuses them: at the partner it would lose
    // about a minute of deliveries (never retried, spec 6.1.4).
    const newOnly = await startReceiver(['whsec_rotated']);
    try {
      await world.sandbox.control.setWebhookUrl(newOnly.url);
      await world.sandbox.control.emitEvent('user.updated', { user_id: 'in-window-2' });
      // An explicit choice still wins inside the window.
      await world.sandbox.control.emitEvent(
        'user.updated',
        { user_id: 'forced-new' },
        { signWithPreviousSecret: false },
      );
      const atNew = await newOnly.waitFor(2);
      expect(atNew.map((r) => [r.body.data.user_id, r.validSignature])).toEqual([
        ['in-window-2', false],
        ['forced-new', true],
      ]);
    } finally {
      await newOnly.close();
    }
    await world.sandbox.control.flushWebhooks();
    expect((await world.sandbox.control.deliveries()).map((d) => d.signedWithPreviousSecret)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('rotation with a short window: the previous secret signs until previousSecretSignsUntil, then the new one', async () => {
    // 1 s: the emit right after the rotation lands inside it even if a loaded machine stalls.
    const rotation = await world.sandbox.control.rotateWebhookSecret('whsec_rotated', undefined, {
      overlapMs: 1000,
    });
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'in-window' });
    const wait = Date.parse(rotation.previousSecretSignsUntil) - Date.now() + 50;
    await new Promise((r) => setTimeout(r, Math.max(wait, 0)));
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'after-window' });
    // Past the window a test can still ask for the old secret explicitly.
    await world.sandbox.control.signNextWithPreviousSecret(1);
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'asked-old' });
    const got = await world.receiver.waitFor(3); // the receiver knows only the old secret
    expect(got.map((r) => [r.body.data.user_id, r.validSignature])).toEqual([
      ['in-window', true],
      ['after-window', false],
      ['asked-old', true],
    ]);
    expect(got[1].headers['x-signature-sha256']).toBe(signPartnerWebhook(got[1].raw, 'whsec_rotated'));
    expect((await world.sandbox.control.deliveries()).map((d) => d.signedWithPreviousSecret)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('reset() ends the window after a rotation (the new secret stays): the next test starts clean', async () => {
    await world.sandbox.control.rotateWebhookSecret('whsec_rotated');
    await world.sandbox.control.reset();
    expect(world.sandbox.webhookSecret).toBe('whsec_rotated');
    world.receiver.secrets.splice(0, world.receiver.secrets.length, 'whsec_rotated');
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'after-reset' });
    const [got] = await world.receiver.waitFor(1);
    expect(got.validSignature).toBe(true);
    expect((await world.sandbox.control.deliveries())[0].signedWithPreviousSecret).toBe(false);
  });

  it('refuses a bad window length or an empty new secret, and changes nothing then', async () => {
    for (const overlapMs of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      await expect(
        world.sandbox.control.rotateWebhookSecret('whsec_rotated', undefined, { overlapMs }),
      ).rejects.toThrow(/overlapMs must be a number of milliseconds/);
    await expect(world.sandbox.control.rotateWebhookSecret('')).rejects.toThrow(/non-empty/);
    expect(world.sandbox.webhookSecret).toBe('whsec_e2e_secret');
    await expect(startPartnerSandbox({ webhookSecretOverlapMs: -5 })).rejects.toThrow(
      /webhookSecretOverlapMs must be a number of milliseconds/,
    );
  });
});

describe('sandbox: webhookSecretOverlapMs', () => {
  const world = useWorld({ webhookSecretOverlapMs: 0 });

  it('0 (opt-in, not the partner): after a rotation the new secret signs at once', async () => {
    const rotation = await world.sandbox.control.rotateWebhookSecret('whsec_rotated');
    expect(Date.parse(rotation.previousSecretSignsUntil)).toBeLessThanOrEqual(Date.now());
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'at-once' });
    const [got] = await world.receiver.waitFor(1); // knows only the old secret
    expect(got.validSignature).toBe(false);
    expect(got.headers['x-signature-sha256']).toBe(signPartnerWebhook(got.raw, 'whsec_rotated'));
    // A rotation's own overlapMs wins over the sandbox option.
    await world.sandbox.control.rotateWebhookSecret('whsec_third', undefined, { overlapMs: 60_000 });
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'windowed' });
    const both = await world.receiver.waitFor(2);
    expect(both[1].headers['x-signature-sha256']).toBe(signPartnerWebhook(both[1].raw, 'whsec_rotated'));
  });
});
