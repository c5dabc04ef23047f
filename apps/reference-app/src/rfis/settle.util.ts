/** Waits for `work` to settle, or for `boundMs`, whichever comes first (a shutdown must not hang on a slow pass). */
export async function settleWithin(work: ReadonlyArray<Promise<unknown>>, boundMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise((resolve) => (timer = setTimeout(resolve, boundMs)));
  try {
    await Promise.race([Promise.allSettled(work), bound]);
  } finally {
    clearTimeout(timer);
  }
}
