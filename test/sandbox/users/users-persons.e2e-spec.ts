import { startWorld, stopWorld, type World } from '../sandbox.fixture';
import { associatedPerson } from '../../setup/partner-inputs.fixture';
import { biz, zod } from './user-bodies.fixture';

// evidence §3: "Accepted but never returned: `pep_status`, …" [T1s §3.11, 3.14], a person's too; an
// unknown key inside a person is refused as an unknown top-level key is (PUT strict, "Unrecognized
// key(s)" [T1s §3.11 B1]; POST checked the same way).
describe('sandbox: associated_persons[] keys (evidence §3)', () => {
  let world: World;
  beforeEach(async () => (world = await startWorld()));
  afterEach(() => stopWorld(world));

  const owner = associatedPerson;

  it('accepts pep_status in a person and never returns it (create answer, GET, PUT answer, list)', async () => {
    const created = await world.api.call('POST', '/v1/users', {
      body: biz({ associated_persons: [owner({ pep_status: 'yes', is_beneficial_owner: true })] }),
    });
    expect(created.status).toBe(201);
    expect(created.body.associated_persons).toEqual([
      expect.objectContaining({ email: 'owner@acme.example', is_beneficial_owner: true }),
    ]);
    expect(created.body.associated_persons[0]).not.toHaveProperty('pep_status');
    const read = await world.api.call('GET', `/v1/users/${created.body.id}`);
    expect(read.body.associated_persons[0]).not.toHaveProperty('pep_status');
    const put = await world.api.call('PUT', `/v1/users/${created.body.id}`, {
      body: { associated_persons: [{ email: 'owner@acme.example', pep_status: 'no', occupation: 'ceo' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.associated_persons[0]).toMatchObject({ occupation: 'ceo' });
    expect(put.body.associated_persons[0]).not.toHaveProperty('pep_status');
    const list = await world.api.call('GET', '/v1/users?limit=10');
    for (const user of list.body.data)
      for (const person of user.associated_persons ?? []) expect(person).not.toHaveProperty('pep_status');
  });

  it('refuses an unknown key in a person on POST and PUT with the Zod unrecognized_keys issue; nothing is stored', async () => {
    const refused = await world.api.call('POST', '/v1/users', {
      body: biz({ associated_persons: [owner(), owner({ email: 'b@acme.example', whatever_key: 1 })] }),
    });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: zod([
        {
          path: 'associated_persons.1',
          message: "Unrecognized key(s) in object: 'whatever_key'",
          code: 'unrecognized_keys',
        },
      ]),
    });
    expect((await world.sandbox.control.counters()).created.users).toBe(0);
    const user = await world.api.call('POST', '/v1/users', { body: biz({ associated_persons: [owner()] }) });
    const put = await world.api.call('PUT', `/v1/users/${user.body.id}`, {
      body: { associated_persons: [{ email: 'owner@acme.example', ownership: '50%' }] },
    });
    expect(put.status).toBe(400);
    expect(put.body.details).toEqual([
      {
        path: 'associated_persons.0',
        message: "Unrecognized key(s) in object: 'ownership'",
        code: 'unrecognized_keys',
      },
    ]);
    const after = await world.api.call('GET', `/v1/users/${user.body.id}`);
    expect(after.body.associated_persons[0]).not.toHaveProperty('ownership');
  });

  it('a person read from an answer and sent back (person_id, is_beneficial_owner) is accepted', async () => {
    const user = await world.api.call('POST', '/v1/users', { body: biz({ associated_persons: [owner()] }) });
    const [person] = user.body.associated_persons;
    expect(person).toMatchObject({ person_id: expect.any(String), is_beneficial_owner: true });
    const put = await world.api.call('PUT', `/v1/users/${user.body.id}`, {
      body: { associated_persons: [{ ...person, first_name: 'Owen' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.associated_persons).toEqual([
      expect.objectContaining({ person_id: person.person_id, first_name: 'Owen' }),
    ]);
  });
});
