import express, { Router } from 'express';
import { CONTROL_OPERATIONS, type ControlOperation } from './control.constants';
import type { SandboxControl } from './control.types';

/**
 * The control API over HTTP, outside the partner's auth: POST /__control/<operation> with a JSON
 * body { args: [...] } answers { result } (or 400 { error }). GET works for argument-less reads
 * (GET /__control/counters, /requestLog, /deliveries, /faults).
 */
export function createControlRouter(control: SandboxControl): Router {
  const router = Router();
  router.use(express.json({ limit: '5mb' }));
  const run = async (op: string, args: unknown, res: express.Response) => {
    if (!CONTROL_OPERATIONS.includes(op as ControlOperation)) {
      return void res
        .status(404)
        .json({ error: `unknown control operation ${op}`, operations: CONTROL_OPERATIONS });
    }
    if (!Array.isArray(args)) return void res.status(400).json({ error: 'body must be { "args": [...] }' });
    try {
      const method = control[op as ControlOperation] as (...a: unknown[]) => Promise<unknown>;
      // JSON has no undefined: a null after the first argument means "not given".
      const result = await method.apply(
        control,
        args.map((a: unknown, i) => (i > 0 && a === null ? undefined : a)),
      );
      res.json({ result: result ?? null });
    } catch (error) {
      res.status(400).json({ error: error instanceof Error ? error.message : String(error) });
    }
  };
  router.get('/', (_req, res) => void res.json({ operations: CONTROL_OPERATIONS }));
  router.get('/:op', (req, res) => run(String(req.params.op), [], res));
  router.post('/:op', (req, res) =>
    run(String(req.params.op), (req.body as { args?: unknown } | undefined)?.args ?? [], res),
  );
  return router;
}
