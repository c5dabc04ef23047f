/** The liveness link of a user and its event (spec 6.4.2, evidence §9). */
import { useWorld } from '../sandbox.fixture';
import { biz, ind, zod } from './user-bodies.fixture';

describe("sandbox: users' liveness links (spec 6.4.2, evidence §9)", () => {
  const world = useWorld();

  it('liveness link: one entry per beneficial owner with a provider reference; user.liveness_completed carries it (6.4.2, evidence §9)', async () => {
    const { body } = await world.api.call('POST', '/v1/users', {
      body: biz({
        associated_persons: [
          {
            email: 'one@acme.example',
            birth_date: '1980-01-01',
            nationality: 'USA',
            first_name: 'Owner',
            last_name: 'One',
            is_beneficial_owner: true,
          },
          {
            email: 'two@acme.example',
            birth_date: '1980-01-01',
            nationality: 'USA',
            first_name: 'Owner',
            last_name: 'Two',
            is_beneficial_owner: true,
          },
          {
            email: 'dir@acme.example',
            birth_date: '1980-01-01',
            nationality: 'USA',
            first_name: 'Just',
            last_name: 'Director',
            is_beneficial_owner: false,
          },
        ],
      }),
    });
    const links = await world.api.call('POST', `/v1/users/${body.id}/liveness-link`);
    expect(links.status).toBe(201);
    expect(links.body.links).toHaveLength(2);
    const refs = links.body.links.map((l: { person_reference_id: string }) => l.person_reference_id);
    expect(new Set(refs).size).toBe(2);
    await world.sandbox.control.completeLiveness(body.id, { personReferenceId: refs[1] });
    await expect(
      world.sandbox.control.completeLiveness(body.id, { personReferenceId: 'ref_unknown' }),
    ).rejects.toThrow();
    const person = await world.api.call('POST', '/v1/users', { body: ind() });
    const single = await world.api.call('POST', `/v1/users/${person.body.id}/liveness-link`);
    expect(single.body.links).toEqual([
      expect.objectContaining({ person_id: null, person_reference_id: null }),
    ]);
    await world.sandbox.control.completeLiveness(person.body.id);
    await world.sandbox.control.flushWebhooks();
    const done = world.receiver.events('user.liveness_completed').map((e) => e.body.data);
    expect(done).toEqual([
      { event_id: expect.any(String), user_id: body.id, person_reference_id: refs[1], result: 'approved' },
      {
        event_id: expect.any(String),
        user_id: person.body.id,
        person_reference_id: null,
        result: 'approved',
      },
    ]);
  });

  it('liveness link: 422 until verification is triggered; 7 days; the same link again unless redirect changes [T1 KiraApiClient]', async () => {
    const partial = await world.api.call('POST', '/v1/users', {
      body: { type: 'individual', first_name: 'Min', last_name: 'Imal', source_of_funds: 'salary' },
    });
    const early = await world.api.call('POST', `/v1/users/${partial.body.id}/liveness-link`);
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({
      code: 'unprocessable',
      message: expect.stringContaining('not been triggered'),
    });

    const { body } = await world.api.call('POST', '/v1/users', { body: biz() });
    const first = await world.api.call('POST', `/v1/users/${body.id}/liveness-link`, {
      body: { redirect: 'https://app.example/a' },
    });
    expect(first.status).toBe(201);
    const [link] = first.body.links;
    const days = (Date.parse(link.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const again = await world.api.call('POST', `/v1/users/${body.id}/liveness-link`, {
      body: { redirect: 'https://app.example/a' },
    });
    expect(again.body.links).toEqual(first.body.links);
    const moved = await world.api.call('POST', `/v1/users/${body.id}/liveness-link`, {
      body: { redirect: 'https://app.example/b' },
    });
    expect(moved.body.links[0].liveness_url).not.toBe(link.liveness_url);
    expect(moved.body.links[0].person_reference_id).toBe(link.person_reference_id); // the person keeps its reference
    expect((await world.sandbox.control.counters()).created.liveness_links).toBe(2);
    const bad = await world.api.call('POST', `/v1/users/${body.id}/liveness-link`, {
      body: { redirect: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(zod([{ path: 'redirect', message: 'Invalid url', code: 'invalid_string' }]));
  });
});
