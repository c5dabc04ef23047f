/** e2e globalTeardown: stops the throwaway PostgreSQL cluster and deletes its directory. */
export default async function globalTeardown(): Promise<void> {
  const pg = globalThis.__THROWAWAY_PG__;
  globalThis.__THROWAWAY_PG__ = undefined;
  if (pg) await pg.stop();
}
