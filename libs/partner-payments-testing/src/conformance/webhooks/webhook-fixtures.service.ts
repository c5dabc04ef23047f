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
import type { PreviousTargetWatch, UserCreatedDelivery } from './webhook.types';
import type { ProbeContext } from '../probe.types';

/** Why a delivery probe cannot run without the receiver options. */
export const NO_RECEIVER =
  'needs a webhook receiver: --webhook-listen <host:port> and --webhook-secret-env <VAR> (options.webhooks), at a URL registered at the partner (registration is out of band, spec 6.1.1)';

/** Why the registration probe cannot run at the partner without the previous receiver. */
export const NO_PREVIOUS_RECEIVER =
  'needs the URL registered before the current one: registration is out of band (spec 6.1.1), so register a URL reaching --webhook-previous-listen <host:port> at the partner, then re-register the one reaching --webhook-listen, and run with both (options.webhooks.previous)';

/** The shortest watch of the previous receiver after the current one's delivery (ms). */
const MIN_GRACE_MS = 2000;

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
  /** The receiver behind the URL registered before the current one (options.webhooks.previous). */
  previousWebhookInbox: ConformanceWebhookInbox | undefined;

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

  /**
   * The previous receiver, watched after the run's user.created reached the current one: for as
   * long again as that delivery took after the create (at least MIN_GRACE_MS), never past the
   * webhook timeout counted from the create. A partner delivering to every URL ever registered, or
   * to the first, would have reached both within that time.
   */
  previousRegistration() {
    return this.shared('previousRegistration', async (): Promise<PreviousTargetWatch> => {
      const previous = this.previousWebhookInbox;
      if (!this.webhookInbox) throw new ProbeSkipped(NO_RECEIVER);
      if (!previous) throw new ProbeSkipped(NO_PREVIOUS_RECEIVER);
      const { answeredAt, delivery } = await this.userCreatedDelivery();
      const now = performance.timeOrigin + performance.now();
      const from = Number.isFinite(answeredAt) ? answeredAt : now;
      const lag = Math.max(0, delivery.receivedAt - from);
      const until = from + Math.min(previous.timeoutMs, lag + Math.max(lag, MIN_GRACE_MS));
      // Ends early once anything has arrived there: one delivery is enough to diverge.
      await previous.first(() => true, Math.max(0, until - now));
      const watchedMs = performance.timeOrigin + performance.now() - from;
      return { url: previous.url, watchedMs, deliveries: [...previous.received] };
    });
  }
}
