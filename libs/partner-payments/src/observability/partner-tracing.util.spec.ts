import { context, propagation, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { PartnerWebhookObservation } from './hooks.util';
import { inPartnerSpan, startPartnerSpan } from './partner-tracing.util';
import { observeWebhookProcessing } from './webhook-instrumentation.util';

/**
 * The cheap paths of the module's tracing: with no SDK nothing is
 * made active and no attribute is computed; a sampled-out trace records nothing below it either;
 * the cached tracer follows a provider registered later or replaced.
 */
describe('partner tracing: no SDK, sampled out, provider changes', () => {
  const register = (sampler: Sampler) => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
    return { exporter, provider };
  };
  const unregister = () => {
    trace.disable();
    context.disable();
    propagation.disable();
  };
  afterEach(unregister);

  it('without an SDK runs the work, sets no active span and asks for no attributes', async () => {
    const described = jest.fn();
    const seen = await inPartnerSpan(
      startPartnerSpan('partner.test'),
      async (span) => ({ active: trace.getActiveSpan(), recording: span.isRecording() }),
      described,
    );
    expect(seen).toEqual({ active: undefined, recording: false });
    expect(described).not.toHaveBeenCalled();
  });

  it('follows a provider registered after the first span, and the next one after trace.disable()', async () => {
    await inPartnerSpan(startPartnerSpan('before any SDK'), async () => 1); // caches the no-SDK tracer
    const first = register(new AlwaysOnSampler());
    await inPartnerSpan(startPartnerSpan('to the first'), async () => 1);
    unregister();
    const second = register(new AlwaysOnSampler());
    await inPartnerSpan(startPartnerSpan('to the second'), async () => 1);
    expect(first.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['to the first']);
    expect(second.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['to the second']);
    await Promise.all([first.provider.shutdown(), second.provider.shutdown()]);
  });

  it('a sampled-out trace records nothing below it, while the hooks still report', async () => {
    const sampler = new ParentBasedSampler({ root: new AlwaysOffSampler() });
    const asked = jest.spyOn(sampler, 'shouldSample');
    const { exporter, provider } = register(sampler);
    const events: PartnerWebhookObservation[] = [];
    const described = jest.fn();
    const result = await observeWebhookProcessing(
      (e) => events.push(e),
      { eventId: 'evt-1', name: 'user.created' },
      false,
      async () => {
        // A child of the sampled-out span follows its decision (it is not a new root at 100%).
        const child = startPartnerSpan('partner.webhook handler');
        const recording = child.isRecording();
        await inPartnerSpan(child, async () => undefined, described);
        return { outcome: 'processed' as const, childRecording: recording };
      },
    );
    expect(result.childRecording).toBe(false);
    // No span is even started under the sampled-out one: the sampler decided once, for the root.
    expect(asked.mock.calls.map((call) => call[2])).toEqual(['partner.webhook process']);
    expect(described).not.toHaveBeenCalled();
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(events).toEqual([
      expect.objectContaining({ type: 'processed', outcome: 'processed', eventId: 'evt-1' }),
    ]);
    await provider.shutdown();
  });
});
