/**
 * Writes apps/reference-app/openapi.json, the document GET /openapi.json serves, from the app
 * itself: the app is started as npm start starts it (embedded sandbox, a SQLite file in a temp
 * folder, no demo), the document built, the app stopped. `npm run openapi` rewrites the file;
 * `-- --check` only reports a difference (exit 1), as test/app/openapi/openapi-document.e2e-spec.ts
 * does in CI.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '../apps/reference-app/src/app-bootstrap.util';
import { OpenApiDocument } from '../apps/reference-app/src/openapi/openapi-document.service';

const target = join(__dirname, '..', 'apps/reference-app/openapi.json');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const running = await startApp({
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'app.sqlite')}`,
        PORT: '0',
        DEMO: 'false',
        PARTNER_BASE_URL: undefined,
      },
      envFile: false,
      logger: ['error'],
    });
    let text: string;
    try {
      text = `${JSON.stringify(running.app.get(OpenApiDocument).get(), null, 2)}\n`;
    } finally {
      await running.close();
    }
    const current = (() => {
      try {
        return readFileSync(target, 'utf8');
      } catch {
        return null;
      }
    })();
    if (process.argv.includes('--check')) {
      if (current !== text) {
        console.error('apps/reference-app/openapi.json differs from the app; run npm run openapi');
        process.exitCode = 1;
      } else console.log('apps/reference-app/openapi.json up to date');
    } else if (current === text) console.log('apps/reference-app/openapi.json already up to date');
    else {
      writeFileSync(target, text);
      console.log('OpenAPI document written to apps/reference-app/openapi.json');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
