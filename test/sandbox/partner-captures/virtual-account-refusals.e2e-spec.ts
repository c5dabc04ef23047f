import { randomUUID } from 'node:crypto';
import { individual, useWorld } from '../sandbox.fixture';

/**
 * evidence §11 N31-N33, C6, N13: the create's refusals in the order and shapes the partner's runtime
 * captures show (T3raw verification-skip-attempt, T4 log §5-§8). The user stays CREATED here (the
 * verification steps are an hour away), as in the captures.
 */
describe('sandbox: virtual-account refusals as the partner words them (evidence §11)', () => {
  const world = useWorld({ verificationDelayMs: 3_600_000 }, 'all');
  let userId: string;
  beforeAll(async () => {
    userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id;
  });
  const create = (body: Record<string, unknown>) =>
    world.api.call('POST', '/v1/virtual-accounts', { body: { user_id: userId, ...body } });
  const invalid = (message: string) => ({
    code: 'validation_error',
    error: 'Invalid data',
    details: [{ message }],
  });

  it('N31: type is the enum US_BANK | MX_SPEI, checked first; its detail has no path', async () => {
    const wrong = await create({ type: 'individual' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(
      invalid("type is Invalid enum value. Expected 'US_BANK' | 'MX_SPEI', received 'individual'"),
    );
    // Without a bank too: only the type is reported while it is wrong.
    expect((await create({ product: 'usa-virtual-accounts' })).body).toEqual(invalid('type is Required'));
  });

  it('N32, C6: bank is required for US_BANK and is one of the bank ids, before the user’s status', async () => {
    const missing = await create({ type: 'US_BANK' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(invalid('bank is bank is required for US_BANK virtual accounts'));
    const unknown = await create({ type: 'US_BANK', bank: 'ACT' });
    expect(unknown.status).toBe(400);
    // C7: the ids are the contract's placeholders (CONTRACT WINS), the wording the partner's.
    expect(unknown.body).toEqual(
      invalid(
        "bank is Invalid enum value. Expected 'bank_a' | 'bank_b' | 'bank_c' | 'bank_d', received 'ACT'",
      ),
    );
  });

  it('N33: a valid body for a user not VERIFIED is the standard error naming the status; MX_SPEI needs no bank to get there', async () => {
    for (const body of [{ type: 'US_BANK', bank: 'bank_a' }, { type: 'MX_SPEI' }]) {
      const answer = await create(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'User must be in VERIFIED status to create a virtual account. Current status: CREATED',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    }
    expect((await world.sandbox.control.counters()).created.virtual_accounts ?? 0).toBe(0);
  });

  it('N13: an unknown account id is a 404 standard error whose message repeats the id', async () => {
    const id = randomUUID();
    const answer = await world.api.call('GET', `/v1/virtual-accounts/${id}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `Virtual account ${id} not found`,
      timestamp: expect.any(String),
    });
  });
});
