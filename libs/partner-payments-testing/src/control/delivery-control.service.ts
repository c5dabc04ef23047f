import { buildFlatEvent, type JsonObject } from '../webhooks/event-builders.util';
import { newId, nowIso } from '../server/ids.util';
import type { SandboxContext } from '../server/sandbox-context.util';
import type {
  ActiveFault,
  DeliveryRecord,
  FaultSpec,
  RequestLogEntry,
  SandboxCounters,
} from './control.types';
import type { EmitOptions } from './control-inputs.types';

export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * The control operations on webhook deliveries, faults and the request log (InProcessControl
 * extends this class with the operations on the accounts' resources).
 */
export class InProcessDeliveryControl {
  constructor(protected readonly ctx: SandboxContext) {}

  protected account(clientUuid?: string) {
    return this.ctx.store.account(clientUuid?.toLowerCase());
  }

  async emitEvent(
    event: string,
    data: Record<string, unknown> = {},
    options: EmitOptions = {},
  ): Promise<{ eventId: string }> {
    const clientUuid = this.account(options.clientUuid).clientUuid;
    // payout.status_changed with an inner `data` object is sent in the V2 envelope (spec 6.2).
    const body =
      event === 'payout.status_changed' && typeof data.data === 'object' && data.data !== null
        ? { event, data: { event_id: newId(), event_type: event, created_at: nowIso(), ...data } }
        : buildFlatEvent(event, data as JsonObject);
    const eventId = this.ctx.webhooks.emit(clientUuid, body, {
      signWithPreviousSecret: options.signWithPreviousSecret,
    });
    return { eventId };
  }

  async sendUnknownEvent(event = 'sandbox.unknown_event', clientUuid?: string): Promise<{ eventId: string }> {
    return this.emitEvent(
      event,
      { note: 'an event type this receiver does not know (spec 6.1.5)' },
      { clientUuid },
    );
  }

  async sendDuplicate(eventId?: string): Promise<void> {
    this.ctx.webhooks.duplicate(eventId);
  }

  async reorderNext(count: number, clientUuid?: string): Promise<void> {
    this.ctx.webhooks.reorderNext(this.account(clientUuid).clientUuid, count);
  }

  async dropNextWebhooks(count = 1, event?: string, clientUuid?: string): Promise<void> {
    this.ctx.webhooks.dropNext(this.account(clientUuid).clientUuid, count, event);
  }

  async signNextWithPreviousSecret(count = 1, clientUuid?: string): Promise<void> {
    this.ctx.webhooks.signNextWithPreviousSecret(this.account(clientUuid).clientUuid, count);
  }

  async addFault(fault: FaultSpec): Promise<{ id: string }> {
    return { id: this.ctx.faults.add(fault).id };
  }

  async clearFaults(): Promise<void> {
    this.ctx.faults.clear();
  }

  async faults(): Promise<ActiveFault[]> {
    return this.ctx.faults.list();
  }

  async expireTokensNow(): Promise<void> {
    this.ctx.store.expireAllTokens();
  }

  async counters(): Promise<SandboxCounters> {
    return clone(this.ctx.telemetry.counters);
  }

  async requestLog(): Promise<RequestLogEntry[]> {
    return clone(this.ctx.telemetry.requestLog);
  }

  async deliveries(): Promise<DeliveryRecord[]> {
    return clone(this.ctx.webhooks.deliveries);
  }

  async waitForDeliveries(
    input: { count?: number; event?: string; timeoutMs?: number } = {},
  ): Promise<DeliveryRecord[]> {
    return clone(await this.ctx.webhooks.waitFor(input.count ?? 1, input.event, input.timeoutMs ?? 5000));
  }

  async flushWebhooks(): Promise<void> {
    await this.ctx.webhooks.idle();
  }
}
