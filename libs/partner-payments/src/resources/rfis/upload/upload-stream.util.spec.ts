import { PartnerLocalValidationError } from '../../../errors/partner.errors';
import { guardBytes, toBuffer } from './upload-stream.util';

async function drain(source: AsyncIterable<Buffer>): Promise<number> {
  let n = 0;
  for await (const c of source) n += c.length;
  return n;
}

describe('toBuffer', () => {
  it('accepts Buffers, Uint8Array views and strings; refuses objects', () => {
    const backing = new Uint8Array([1, 2, 3, 4]);
    expect([...toBuffer(backing.subarray(1, 3))]).toEqual([2, 3]);
    expect(toBuffer('hé').length).toBe(3);
    expect(() => toBuffer({ a: 1 })).toThrow(
      'upload streams must yield Buffer or string chunks (got object)',
    );
  });
});

describe('guardBytes', () => {
  it('passes exact lengths through', async () => {
    expect(
      await drain(guardBytes([Buffer.alloc(3), 'ab'], { field: 'f', maxBytes: 5, expectedBytes: 5 })),
    ).toBe(5);
  });

  it('errors past maxBytes, past or short of expectedBytes, and past the shared budget', async () => {
    const run = (chunks: Buffer[], guard: Parameters<typeof guardBytes>[1]) =>
      drain(guardBytes(chunks, guard)).catch((e: unknown) => e as PartnerLocalValidationError);
    const over = await run([Buffer.alloc(6)], { field: 'files[1]', maxBytes: 5 });
    expect(over).toBeInstanceOf(PartnerLocalValidationError);
    expect((over as PartnerLocalValidationError).fieldErrors[0].field).toBe('files[1]');
    expect(String(await run([Buffer.alloc(4)], { field: 'f', maxBytes: 9, expectedBytes: 3 }))).toMatch(
      /more bytes/,
    );
    expect(String(await run([Buffer.alloc(2)], { field: 'f', maxBytes: 9, expectedBytes: 3 }))).toMatch(
      /ended after 2/,
    );
    const budget = { remaining: 3 };
    const err = await run([Buffer.alloc(4)], { field: 'files[2]', maxBytes: 9, budget });
    expect((err as PartnerLocalValidationError).fieldErrors).toEqual([
      { field: 'files', message: 'files[2] takes the files of this call past the per-call total' },
    ]);
  });
});
