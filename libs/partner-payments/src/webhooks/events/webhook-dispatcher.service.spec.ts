import { EventEmitter2 } from '@nestjs/event-emitter';
import { emitToAllListeners } from './webhook-dispatcher.service';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('emitToAllListeners', () => {
  it('waits for every handler before reporting the first failure (no write may land after a rollback)', async () => {
    const emitter = new EventEmitter2();
    const log: string[] = [];
    emitter.on('payout.completed', async () => {
      log.push('fast fails');
      throw new Error('projection refused');
    });
    emitter.on('payout.completed', async () => {
      await tick(30);
      log.push('slow wrote');
    });
    await expect(emitToAllListeners(emitter, 'payout.completed', {})).rejects.toThrow('projection refused');
    // With emitAsync the rejection arrives before 'slow wrote'.
    expect(log).toEqual(['fast fails', 'slow wrote']);
  });

  it('passes the payload to each listener, the name and payload to onAny listeners, and turns a sync throw into a rejection', async () => {
    const emitter = new EventEmitter2();
    const seen: unknown[] = [];
    emitter.on('user.created', (p: unknown) => void seen.push(['on', p]));
    emitter.onAny((name: string | string[], p: unknown) => void seen.push(['any', name, p]));
    await emitToAllListeners(emitter, 'user.created', { id: 1 });
    expect(seen).toEqual([
      ['on', { id: 1 }],
      ['any', 'user.created', { id: 1 }],
    ]);
    emitter.on('user.updated', () => {
      throw new Error('sync boom');
    });
    await expect(emitToAllListeners(emitter, 'user.updated', {})).rejects.toThrow('sync boom');
  });

  it('resolves when nobody listens', async () => {
    await expect(emitToAllListeners(new EventEmitter2(), 'nobody', {})).resolves.toBeUndefined();
  });
});
