import { OnEvent, type OnEventOptions } from '@nestjs/event-emitter';
import type { PartnerEventMap } from './partner-event.types';

/** Any name the module emits: the partner's events (spec 6.3) and the derived ones. */
export type PartnerEmittedEventName = keyof PartnerEventMap;

/**
 * `@OnEvent(name)` with a typed name and a typed handler parameter (`PartnerEventMap[name]`).
 * Sets suppressErrors: false by default: a throwing handler then marks the inbox entry failed (and
 * it is retried by processPending) instead of being logged and forgotten, which is what a plain
 * `@OnEvent` does by default (@nestjs/event-emitter suppresses handler errors).
 * Handlers run at least once: make them idempotent (key on event.eventId).
 */
export function OnPartnerEvent<N extends PartnerEmittedEventName>(
  name: N,
  options?: OnEventOptions,
): <H extends (event: PartnerEventMap[N]) => unknown>(
  target: object,
  propertyKey: string | symbol,
  descriptor: TypedPropertyDescriptor<H>,
) => void {
  const decorator = OnEvent(name, { ...options, suppressErrors: options?.suppressErrors ?? false });
  return (target, propertyKey, descriptor) => {
    decorator(target, propertyKey, descriptor);
  };
}
