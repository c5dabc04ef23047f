/**
 * A TCP proxy in the test process, in front of a real server (the throwaway PostgreSQL), that can
 * turn the connections it carries into black holes: the sockets stay open, bytes are no longer
 * forwarded either way, nothing is ever closed. What a database failover or a network path that
 * stops forwarding without a FIN or RST looks like to the app: its queries on those connections
 * never get an answer and never fail. Connections opened afterwards are forwarded normally.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

interface Carried {
  app: Socket;
  server: Socket;
  dead: boolean;
}

export interface BlackHoleProxy {
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Turns every connection open now into a black hole; later ones are forwarded normally. */
  blackHoleOpenConnections(): number;
  /** Connections opened through the proxy so far. */
  readonly opened: number;
  /** Destroys every socket (the black holes included) and stops listening. */
  close(): Promise<void>;
}

export async function startBlackHoleProxy(target: { host: string; port: number }): Promise<BlackHoleProxy> {
  const carried = new Set<Carried>();
  let opened = 0;
  // Half-open allowed: a FIN from the app (a client it gives up on) is not answered by one either.
  const server = createServer({ allowHalfOpen: true }, (app) => {
    opened += 1;
    const upstream = connect({ port: target.port, host: target.host, allowHalfOpen: true });
    const c: Carried = { app, server: upstream, dead: false };
    carried.add(c);
    app.on('data', (chunk: Buffer) => void (c.dead || upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => void (c.dead || app.write(chunk)));
    // A live connection closes as a whole; a black hole never tells either side anything.
    const closeBoth = () => {
      if (c.dead) return;
      app.destroy();
      upstream.destroy();
      carried.delete(c);
    };
    for (const s of [app, upstream]) {
      s.on('error', closeBoth);
      s.on('close', closeBoth);
      s.on('end', closeBoth);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    blackHoleOpenConnections() {
      for (const c of carried) c.dead = true;
      return carried.size;
    },
    get opened() {
      return opened;
    },
    async close() {
      for (const c of carried) {
        c.dead = false;
        c.app.destroy();
        c.server.destroy();
      }
      carried.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
