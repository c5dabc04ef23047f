/**
 * Children started by a benchmark die with it, even when it aborts (hard deadline, crash): an
 * orphaned app or sandbox would keep a port and the CPU that the next benchmark measures with.
 */
import type { ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export function trackChild<C extends ChildProcess>(child: C): C {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
