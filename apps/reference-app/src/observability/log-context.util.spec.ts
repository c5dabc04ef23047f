import { EventEmitter } from 'node:events';
import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { addLogFields, currentLogFields, LogScopeContextManager, withLogFields } from './log-context.util';

const KEY = createContextKey('test key');
const manager = new LogScopeContextManager();
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('LogScopeContextManager: the trace context in the log scope', () => {
  it('is the root context outside any scope, and the entered one inside, across awaits and timers', async () => {
    expect(manager.active()).toBe(ROOT_CONTEXT);
    const ctx = ROOT_CONTEXT.setValue(KEY, 'a');
    const seen = await manager.with(ctx, async () => {
      await tick();
      const later = await new Promise((resolve) => setTimeout(() => resolve(manager.active()), 1));
      return [manager.active(), later];
    });
    expect(seen).toEqual([ctx, ctx]);
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('restores the outer context after a nested one, and passes this and the arguments', () => {
    const outer = ROOT_CONTEXT.setValue(KEY, 'outer');
    const inner = ROOT_CONTEXT.setValue(KEY, 'inner');
    const self = { name: 'self' };
    manager.with(outer, () => {
      const got = manager.with(
        inner,
        function (this: typeof self, a: number, b: number) {
          return [this.name, a + b, manager.active().getValue(KEY)];
        },
        self,
        2,
        3,
      );
      expect(got).toEqual(['self', 5, 'inner']);
      expect(manager.active().getValue(KEY)).toBe('outer');
    });
  });

  it('keeps the log fields when a trace context is entered, and the trace context when fields are added', async () => {
    const ctx = ROOT_CONTEXT.setValue(KEY, 'traced');
    await withLogFields({ request_id: 'r-1' }, () =>
      manager.with(ctx, async () => {
        expect(currentLogFields()).toEqual({ request_id: 'r-1' });
        await withLogFields({ event_id: 'e-1' }, async () => {
          await tick();
          expect(currentLogFields()).toEqual({ request_id: 'r-1', event_id: 'e-1' });
          expect(manager.active()).toBe(ctx);
        });
        // Added to the scope the request opened: seen by the work of the same scope.
        addLogFields({ payout_id: 'p-1' });
        expect(currentLogFields()).toEqual({ request_id: 'r-1', payout_id: 'p-1' });
      }),
    );
    expect(currentLogFields()).toBeUndefined();
  });

  it("adds fields from inside a trace context to the scope around it: the request's later lines have them", () => {
    withLogFields({ request_id: 'r-5' }, () => {
      manager.with(ROOT_CONTEXT.setValue(KEY, 'inner'), () => addLogFields({ payout_id: 'p-5' }));
      expect(currentLogFields()).toEqual({ request_id: 'r-5', payout_id: 'p-5' });
    });
  });

  it('adds no fields outside a log scope, even inside a trace context', () => {
    manager.with(ROOT_CONTEXT.setValue(KEY, 'x'), () => {
      addLogFields({ payout_id: 'p-2' });
      expect(currentLogFields()).toBeUndefined();
    });
  });

  it('binds a function and an event emitter to a context', () => {
    const ctx = ROOT_CONTEXT.setValue(KEY, 'bound');
    const fn = manager.bind(ctx, () => manager.active().getValue(KEY));
    expect(fn()).toBe('bound');
    const emitter = manager.bind(ctx, new EventEmitter());
    let heard: unknown;
    emitter.on('ping', () => (heard = manager.active().getValue(KEY)));
    emitter.emit('ping');
    expect(heard).toBe('bound');
  });

  it('attaches a context till the token is disposed, then the outer one again, keeping the log fields', () => {
    const outer = ROOT_CONTEXT.setValue(KEY, 'outer');
    withLogFields({ request_id: 'r-3' }, () =>
      manager.with(outer, () => {
        const ctx = ROOT_CONTEXT.setValue(KEY, 'attached');
        const token = manager.attach(ctx);
        expect(manager.active()).toBe(ctx);
        expect(currentLogFields()).toEqual({ request_id: 'r-3' });
        token.dispose();
        token.dispose();
        expect(manager.active()).toBe(outer);
        expect(currentLogFields()).toEqual({ request_id: 'r-3' });
      }),
    );
  });

  it('on disable, stops the trace contexts entered before, in work still running; a new manager starts clean', async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const old = ROOT_CONTEXT.setValue(KEY, 'old trace');
    const running = manager.with(old, async () => {
      await gate;
      return manager.active();
    });
    manager.disable();
    const next = new LogScopeContextManager();
    const fresh = ROOT_CONTEXT.setValue(KEY, 'new trace');
    expect(next.with(fresh, () => next.active())).toBe(fresh);
    release();
    expect(await running).toBe(ROOT_CONTEXT);
  });

  it('keeps its storage on disable: the log fields do not depend on tracing', () => {
    withLogFields({ request_id: 'r-4' }, () => {
      manager.disable();
      expect(currentLogFields()).toEqual({ request_id: 'r-4' });
    });
  });
});
