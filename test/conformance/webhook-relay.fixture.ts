/**
 * A relay between the sandbox and the kit's receivers, for stand-ins of a partner whose deliveries
 * differ: it changes each delivery as `change` says and passes it on to every target it holds.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Change = (
  raw: string,
  headers: Record<string, string>,
) => { raw: string; headers: Record<string, string> };

export async function startRelay(change: Change = (raw, headers) => ({ raw, headers })) {
  const targets: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'x-signature-sha256']) headers[name] = String(req.headers[name]);
      const changed = change(Buffer.concat(chunks).toString('utf8'), headers);
      const sent = targets.map((target) =>
        fetch(target, { method: 'POST', headers: changed.headers, body: changed.raw }),
      );
      void Promise.all(sent).then(
        (answers) => res.writeHead(answers[0]?.status ?? 502).end(),
        () => res.writeHead(502).end(),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/relay`,
    /** Deliveries go to `url` only from now on. */
    setTarget: (url: string) => void targets.splice(0, targets.length, url),
    /** Deliveries go to `url` as well. */
    addTarget: (url: string) => void targets.push(url),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
