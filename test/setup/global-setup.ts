// Replaced by the throwaway-PostgreSQL setup (issue: reference app). Until then e2e suites need nothing global.
export default async function globalSetup(): Promise<void> {}
