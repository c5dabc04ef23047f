/** The conformance kit's opt-in webhook receiver: its options and what it hands to probes. */
import type { ReceivedPartnerWebhook } from '../../webhooks/webhook-receiver.service';

export interface ConformanceWebhookOptions {
  /**
   * Where the receiver listens. The URL registered at the partner must reach it: registration is
   * out of band (spec 6.1.1), so the operator registers it, or a hook (`pointWebhooksAt`) does.
   */
  host: string;
  /** 0 picks a free port (only useful when a hook points the deliveries at it). */
  port: number;
  /** The webhook secret the deliveries are signed with (spec 6.1.3); never printed. */
  secret: string;
  /**
   * How long a probe waits for a delivery (ms). Default 120000: the partner's user.created came
   * about 37 s after the create (evidence §11 N22 [T3raw webhooks/32]).
   */
  timeoutMs?: number;
  /**
   * A second receiver, where the URL registered BEFORE the one reaching `host:port` leads (the
   * registration probe, evidence §11 N23): the target is one URL per client and the last
   * registration wins, so nothing may arrive here. Same secret. Against a simulator whose hooks
   * point the deliveries (`pointWebhooksAt`), the kit starts one on `host`, port 0, when absent.
   */
  previous?: { host: string; port: number };
}

/** The user.created delivery of a user the run created without a phone (evidence §11 N22). */
export interface UserCreatedDelivery {
  userId: string;
  /** When the create's answer (status and headers) arrived, on the receiver's clock (epoch ms). */
  answeredAt: number;
  delivery: ReceivedPartnerWebhook;
}

/** What reached the previous receiver while the kit watched it (evidence §11 N23). */
export interface PreviousTargetWatch {
  /** The previous receiver's URL on its own host. */
  url: string;
  /** How long it was watched after the create's answer (ms). */
  watchedMs: number;
  /** Every delivery it got, signed or not; the last registration winning means none. */
  deliveries: ReceivedPartnerWebhook[];
}
