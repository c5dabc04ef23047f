import type { IncomingMessage, ServerResponse } from 'node:http';
import { printableUrl } from '../server/url-mask.util';
import { eventIdOf, type JsonObject } from '../webhooks/event-builders.util';
import { errorText } from './cli-io.util';

/** A delivery is one event's JSON (spec 6.2); anything bigger is no delivery of the sandbox's. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Headers not forwarded: the connection's own (fetch sets them for the new request). */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'expect',
  'upgrade',
]);

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `event  event_id` of a body, for the one line printed per delivery. */
function describe(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as JsonObject;
    const event = typeof parsed.event === 'string' ? parsed.event : '(no event)';
    return `${event.padEnd(44)} ${eventIdOf(parsed) ?? '(no event_id)'}`;
  } catch {
    return '(a body that is not JSON)'.padEnd(44);
  }
}

/**
 * Forwards one delivery to `forwardTo`: the same bytes and headers (x-signature-sha256 among them),
 * then answers the sandbox with the target's status and body. A target that does not answer in
 * time: the sandbox's connection is dropped, so its record says `failed`, as for an app that is down.
 */
export async function relayDelivery(
  req: IncomingMessage,
  res: ServerResponse,
  options: { forwardTo: string; timeoutMs: number },
  print: (line: string) => void,
): Promise<void> {
  const time = () => new Date().toISOString();
  let body: Buffer | undefined;
  try {
    body = await readBody(req);
  } catch {
    return;
  }
  if (!body) {
    print(`${time()}  a request over ${MAX_BODY_BYTES} bytes, not forwarded`);
    return;
  }
  const what = describe(body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (!HOP_BY_HOP.has(name) && value !== undefined)
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  try {
    const answer = await fetch(options.forwardTo, {
      method: req.method ?? 'POST',
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const answerBody = Buffer.from(await answer.arrayBuffer());
    print(`${time()}  ${what}  -> ${answer.status}`);
    const type = answer.headers.get('content-type');
    res.writeHead(answer.status, type ? { 'content-type': type } : {});
    res.end(answerBody);
  } catch (error) {
    print(`${time()}  ${what}  -> not delivered to ${printableUrl(options.forwardTo)}: ${errorText(error)}`);
    res.destroy();
  }
}
