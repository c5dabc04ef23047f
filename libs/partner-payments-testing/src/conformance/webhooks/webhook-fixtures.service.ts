/**
 * Fixtures that need more than the API: a user of another account (evidence §11 N14) and a
 * user.created delivery caught by the kit's receiver (evidence §11 N22).
 */
import { randomUUID } from 'node:crypto';
import type { ReceivedPartnerWebhook } from '../../webhooks/webhook-receiver.service';
import { ProbeSkipped } from '../conformance-context.service';
import { ConformanceFixtures } from '../conformance-fixtures.service';
import { fixtureUser } from '../probe-bodies.util';
import type { ConformanceWebhookInbox } from './webhook-inbox.service';
import type { UserCreatedDelivery } from './webhook.types';
import type { ProbeContext } from '../probe.types';

/** Why a delivery probe cannot run without the receiver options. */
export const NO_RECEIVER =
  'needs a webhook receiver: --webhook-listen <host:port> and --webhook-secret-env <VAR> (options.webhooks), at a URL registered at the partner (registration is out of band, spec 6.1.1)';

/** The delivery names the user by its id (`user_id`, or `id`), as the sandbox's does. */
function namesUser(d: ReceivedPartnerWebhook, userId: string, email: string): boolean {
  const data = d.body?.data as Record<string, unknown> | undefined;
  if (d.event !== 'user.created' || !data) return false;
  // The recorded delivery's first keys are event_id, type, email (evidence §11 N22): the run's
  // unique email names the user when no id field does.
  return data.user_id === userId || data.id === userId || data.email === email;
}

export class ConformanceRunFixtures extends ConformanceFixtures implements ProbeContext {
  /** Set by the runner when options.webhooks asks for a receiver. */
  webhookInbox: ConformanceWebhookInbox | undefined;

  foreignUser() {
    return this.shared('foreignUser', async () => {
      if (this.options.foreignUserId) return { id: this.options.foreignUserId };
      const make = this.options.hooks?.foreignUser;
      if (!make)
        throw new ProbeSkipped(
          'needs a user of another account of yours (--foreign-user <id>, foreignUserId)',
        );
      // The hook creates that user: a read-only run creates nothing, even on a simulator.
      this.requireWrites("another account's user");
      return { id: await make() };
    });
  }

  userCreatedDelivery() {
    return this.shared('userCreatedDelivery', async (): Promise<UserCreatedDelivery> => {
      const inbox = this.webhookInbox;
      if (!inbox) throw new ProbeSkipped(NO_RECEIVER);
      this.requireWrites('a user whose user.created delivery to wait for');
      const email = `conformance.${randomUUID().slice(0, 8)}@example.com`;
      // evidence §11 N22: the recorded delivery was of a user created without a phone.
      const body: Record<string, unknown> = { ...fixtureUser(this.runId), email };
      delete body.phone;
      const answer = await this.send({
        method: 'POST',
        path: '/v1/users',
        body,
        idempotencyKey: randomUUID(),
      });
      // Any 2xx with an id will do: a changed create answer is users.create's divergence, not this one's.
      const made = answer.body as { id?: unknown; user_id?: unknown } | undefined;
      const id = typeof made?.id === 'string' ? made.id : made?.user_id;
      if (answer.status < 200 || answer.status > 299 || typeof id !== 'string') {
        throw new Error(`fixture user for a webhook: POST /v1/users answered ${answer.status}`);
      }
      this.created('user', id, 'fixture:user-created-delivery');
      const delivery = await inbox.first((d) => namesUser(d, id, email));
      if (!delivery) {
        throw new Error(
          `no user.created for user ${id} within ${inbox.timeoutMs} ms: is ${inbox.url} reachable from the URL registered at the partner? (raise --webhook-timeout-ms)`,
        );
      }
      return { userId: id, answeredAt: answer.answeredAt ?? Number.NaN, delivery };
    });
  }
}
