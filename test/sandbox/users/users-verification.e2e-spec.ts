import { startPartnerSandbox } from '@partner-payments/testing';
import { startWorld, stopWorld, useWorld } from '../sandbox.fixture';
import { biz, ind } from './user-bodies.fixture';

describe('sandbox: user verification as the partner runs it (evidence §3 [D known-limitations][T3r DRIFT-23], spec 3.3)', () => {
  const world = useWorld();

  it('never verifies on its own: CREATED → VERIFYING → REVIEW, then it waits for the staff (the control)', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: ind() });
    const read = await world.api.call('GET', `/v1/users/${body.id}`);
    expect(read.body).toMatchObject({ status: 'REVIEW', verification_status: 'unverified' });
    expect(read.body).not.toHaveProperty('verification_triggered'); // DRIFT-14
    expect(read.body.eligible_products.every((p: { eligible: boolean }) => !p.eligible)).toBe(true);
    await world.sandbox.control.flushWebhooks();
    const changes = () =>
      world.receiver
        .events('user.status_changed')
        .map((e) => [e.body.data.previous_status, e.body.data.new_status]);
    expect(changes()).toEqual([
      ['CREATED', 'VERIFYING'],
      ['VERIFYING', 'REVIEW'],
    ]);
    expect(world.receiver.events('user.verification.accepted')).toHaveLength(0);
    expect(await world.sandbox.control.setUserVerificationOutcome(body.id, 'approved')).toBe('VERIFIED');
    const verified = await world.api.call('GET', `/v1/users/${body.id}`);
    expect(verified.body).toMatchObject({ status: 'VERIFIED', verification_status: 'verified' });
    // keyed on product_code: product_id is opaque (evidence §11 C3)
    const byCode = (code: string) =>
      verified.body.eligible_products.find((p: { product_code: string }) => p.product_code === code);
    expect(byCode('usa-virtual-accounts')).toMatchObject({ eligible: true });
    await world.sandbox.control.flushWebhooks();
    expect(changes().at(-1)).toEqual(['REVIEW', 'VERIFIED']);
    const accepted = world.receiver.events('user.verification.accepted');
    expect(accepted).toHaveLength(1);
    // evidence §9: status_changed is { event_id, user_id, previous_status, new_status }, no status, no metadata
    for (const e of world.receiver.events('user.status_changed'))
      expect(Object.keys(e.body.data).sort()).toEqual([
        'event_id',
        'new_status',
        'previous_status',
        'user_id',
      ]);
  });

  it('the steps take verificationDelayMs each; the create answer says CREATED either way', async () => {
    // Long enough that the GET right after the create still lands before the first step on a loaded
    // CI machine (40 ms once lost that race during a full run).
    const slow = await startWorld({ verificationDelayMs: 1000 });
    try {
      const { body } = await slow.api.call('POST', '/v1/users', { body: ind() });
      expect(body.status).toBe('CREATED');
      expect((await slow.api.call('GET', `/v1/users/${body.id}`)).body.status).toBe('CREATED');
      await slow.sandbox.control.waitForDeliveries({ count: 3, event: undefined, timeoutMs: 10_000 });
      const statuses = await slow.receiver.waitFor(3, 10_000);
      expect(statuses.at(-1)?.body.data.new_status).toBe('REVIEW');
      expect((await slow.api.call('GET', `/v1/users/${body.id}`)).body.status).toBe('REVIEW');
    } finally {
      await stopWorld(slow);
    }
  });

  it("by default the steps take the partner's pace: still CREATED 3 s after the create (REVIEW in about 10 s, DRIFT-23)", async () => {
    // verificationDelayMs not given: the sandbox's own default, not the suites' 0.
    const paced = await startWorld({ verificationDelayMs: undefined });
    try {
      const { body } = await paced.api.call('POST', '/v1/users', { body: ind() });
      expect(body).toMatchObject({ status: 'CREATED', verification_triggered: true });
      await new Promise((r) => setTimeout(r, 3_000));
      // Still CREATED (the first step, to VERIFYING, comes at 5 s): an app that reads REVIEW right
      // after the create fails here as it would at the partner.
      expect((await paced.api.call('GET', `/v1/users/${body.id}`)).body.status).toBe('CREATED');
    } finally {
      await stopWorld(paced);
    }
  });

  it('a provider outage set while the automatic steps wait is kept: the scheduled REVIEW no longer applies', async () => {
    // With a delay, the control can act between steps; before, the step scheduled before the outage
    // still moved the user to REVIEW (spec 3.3: a failing provider call keeps VERIFYING).
    const paced = await startWorld({ verificationDelayMs: 500 });
    try {
      const { body } = await paced.api.call('POST', '/v1/users', { body: ind() });
      const status = async () => (await paced.api.call('GET', `/v1/users/${body.id}`)).body.status;
      for (let waited = 0; (await status()) !== 'VERIFYING' && waited < 5_000; waited += 50)
        await new Promise((r) => setTimeout(r, 50));
      expect(await paced.sandbox.control.setUserVerificationOutcome(body.id, 'provider_outage')).toBe(
        'VERIFYING',
      );
      await new Promise((r) => setTimeout(r, 1_500)); // three step delays
      expect(await status()).toBe('VERIFYING');
    } finally {
      await stopWorld(paced);
    }
  });

  it('missing fields stay CREATED (not triggered); GET lists missing_fields by product plus general; a PUT that completes them starts verification', async () => {
    const { body } = await world.api.call('POST', '/v1/users', {
      body: {
        type: 'individual',
        first_name: 'Min',
        last_name: 'Imal',
        email: 'm@example.com',
        source_of_funds: 'salary',
      },
    });
    expect(body.verification_triggered).toBe(false);
    const read = await world.api.call('GET', `/v1/users/${body.id}`);
    expect(read.body.status).toBe('CREATED');
    const missing = read.body.missing_fields;
    expect(missing['usa-virtual-accounts']).toEqual(
      expect.arrayContaining(['birth_date', 'occupation', 'account_purpose', 'address_country']),
    );
    expect(missing['usa-virtual-accounts-act']).toEqual(
      expect.arrayContaining(['employment_status', 'additional_info:has_us_bank_account']),
    );
    // general is the union of every product [T1s §3.11 B6]
    expect(new Set(missing.general)).toEqual(
      new Set([...missing['usa-virtual-accounts'], ...missing['usa-virtual-accounts-act']]),
    );
    await expect(world.sandbox.control.setUserVerificationOutcome(body.id, 'approved')).rejects.toThrow(
      /not triggered/,
    );
    const full = ind();
    const { type: _t, ...rest } = full;
    const put = await world.api.call('PUT', `/v1/users/${body.id}`, { body: rest });
    expect(put.status).toBe(200);
    expect(put.body.requires_reverification).toBe(false); // still CREATED when written
    expect((await world.api.call('GET', `/v1/users/${body.id}`)).body.status).toBe('REVIEW');
  });

  it('without source_of_funds: REJECTED within the steps, user.verification.failed carries reasons[]; GET never shows a reason', async () => {
    const { body } = await world.api.call('POST', '/v1/users', {
      body: ind({ source_of_funds: undefined }),
    });
    const read = await world.api.call('GET', `/v1/users/${body.id}`);
    expect(read.body).toMatchObject({ status: 'REJECTED', verification_status: 'rejected' });
    expect(JSON.stringify(read.body)).not.toMatch(/reason/);
    await world.sandbox.control.flushWebhooks();
    const failed = world.receiver.events('user.verification.failed');
    expect(failed.map((e) => e.body.data)).toEqual([
      {
        event_id: expect.any(String),
        user_id: body.id,
        verification_status: 'rejected',
        reasons: [expect.stringContaining('source_of_funds')],
      },
    ]);
    await expect(world.sandbox.control.setUserVerificationOutcome(body.id, 'approved')).rejects.toThrow(
      'terminal',
    );
  });

  it('spec 3.3: a failing provider call keeps VERIFYING, no failure event, and a decline is refused (the re-run never rejects); approval resolves it', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: ind() });
    expect(await world.sandbox.control.setUserVerificationOutcome(body.id, 'provider_outage')).toBe(
      'VERIFYING',
    );
    await expect(world.sandbox.control.setUserVerificationOutcome(body.id, 'declined')).rejects.toThrow(
      /provider call is failing.*never rejects/,
    );
    await expect(
      world.sandbox.control.setUserVerificationOutcome(body.id, 'session_expired'),
    ).rejects.toThrow(/never rejects/);
    expect((await world.api.call('GET', `/v1/users/${body.id}`)).body.status).toBe('VERIFYING');
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.events('user.verification.failed')).toHaveLength(0);
    expect(await world.sandbox.control.setUserVerificationOutcome(body.id, 'approved')).toBe('VERIFIED');
    // without an outage a decline works, even after approval (accepted then rejected), with the given reasons
    expect(
      await world.sandbox.control.setUserVerificationOutcome(body.id, 'declined', {
        reasons: ['Document expired'],
      }),
    ).toBe('REJECTED');
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.events('user.verification.failed').map((e) => e.body.data.reasons)).toEqual([
      ['Document expired'],
    ]);
  });

  it('setNextVerificationOutcome decides the next users where the staff would; null gives the partner default back', async () => {
    await world.sandbox.control.setNextVerificationOutcome('session_expired');
    const a = await world.api.call('POST', '/v1/users', { body: ind() });
    expect((await world.api.call('GET', `/v1/users/${a.body.id}`)).body.status).toBe('REJECTED');
    await world.sandbox.control.setNextVerificationOutcome('approved');
    const b = await world.api.call('POST', '/v1/users', { body: ind() });
    expect((await world.api.call('GET', `/v1/users/${b.body.id}`)).body.status).toBe('VERIFIED');
    await world.sandbox.control.setNextVerificationOutcome(null);
    const c = await world.api.call('POST', '/v1/users', {
      body: ind({ metadata: { sandbox_verification: 'approved' } }),
    });
    // magic values are gone: metadata is only metadata
    expect((await world.api.call('GET', `/v1/users/${c.body.id}`)).body.status).toBe('REVIEW');
  });
});

describe('sandbox: opt-in verification modes (conveniences the partner lacks)', () => {
  it("'auto-approve' verifies after REVIEW on its own", async () => {
    const world = await startWorld({ userVerification: 'auto-approve' });
    try {
      const { body } = await world.api.call('POST', '/v1/users', { body: ind() });
      expect(body.status).toBe('CREATED');
      expect((await world.api.call('GET', `/v1/users/${body.id}`)).body.status).toBe('VERIFIED');
    } finally {
      await stopWorld(world);
    }
  });

  it("'ein-table' follows the docs' forcing-outcomes table for businesses [T1 REVISION-DOCS §5]; individuals stay in REVIEW", async () => {
    const world = await startWorld({ userVerification: 'ein-table' });
    try {
      const statusFor = async (body: Record<string, unknown>) => {
        const created = await world.api.call('POST', '/v1/users', { body });
        await world.sandbox.control.flushWebhooks();
        const changes = world.receiver
          .events('user.status_changed')
          .filter((e) => e.body.data.user_id === created.body.id)
          .map((e) => e.body.data.new_status);
        return changes;
      };
      expect(await statusFor(biz({ ein: '111111111' }))).toEqual(['VERIFYING', 'REJECTED']);
      expect(await statusFor(biz({ ein: '111111113' }))).toEqual(['VERIFYING', 'REJECTED']);
      expect(await statusFor(biz({ ein: '222221006' }))).toEqual(['VERIFYING', 'REVIEW', 'REJECTED']);
      expect(await statusFor(biz({ ein: '222221005' }))).toEqual(['VERIFYING', 'REVIEW', 'VERIFIED']);
      expect(await statusFor(biz({ ein: '987654321' }))).toEqual(['VERIFYING', 'VERIFIED']);
      expect(await statusFor(ind())).toEqual(['VERIFYING', 'REVIEW']);
    } finally {
      await stopWorld(world);
    }
  });

  it('refuses an unknown mode at start', async () => {
    await expect(startPartnerSandbox({ userVerification: 'instant' as never })).rejects.toThrow(
      /userVerification/,
    );
  });
});
