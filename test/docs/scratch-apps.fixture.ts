/**
 * The scratch apps' starting points: a temp folder per app, a real `nest new` (the pinned Nest
 * CLI) and a CommonJS Nest app for the Jest route.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXISTING_APP_FILES, REPO_ROOT } from './readme-blocks.fixture';
import { run, writeJson, type Started } from './scratch-commands.fixture';
import { writeFiles } from './consumer-app.fixture';

/**
 * The Nest CLI that makes the scratch app, pinned so a CI run is repeatable (what `npx @nestjs/cli@12`
 * makes changes with each release). Raise it on purpose, and read what the new one generates. The
 * app's own dependencies are the `^` ranges the CLI writes, resolved as for any user that day.
 */
export const NEST_CLI = '@nestjs/cli@12.0.8';

/** `nest new <name>` in `parent`, as a user runs it (strict TypeScript, npm), without installing. */
export function nestNew(parent: string, name: string): string {
  run(
    parent,
    'npx',
    [
      '--yes',
      NEST_CLI,
      'new',
      name,
      '--skip-git',
      '--skip-install', // the spec installs next, with its own time limit and the output kept
      '--package-manager',
      'npm',
      '--strict',
      '--no-observe', // the CLI would ask otherwise
    ],
    240000,
  );
  return join(parent, name);
}

/**
 * One spec's scratch folder and processes, called in its describe: `makeFolder()` (in beforeAll)
 * checks the tarballs the docs project packed and makes a temp folder; after the spec the
 * processes are stopped and the folder removed (kept with KEEP_CONSUMER_APP=1).
 */
export function scratchApp(prefix: string) {
  const tarballs = process.env.PARTNER_PAYMENTS_TARBALLS ?? '';
  const processes: Started[] = [];
  let folder = '';
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    if (folder && !process.env.KEEP_CONSUMER_APP) rmSync(folder, { recursive: true, force: true });
  });
  return {
    tarballs,
    processes,
    makeFolder(): string {
      if (!tarballs || !existsSync(tarballs))
        throw new Error('PARTNER_PAYMENTS_TARBALLS unset: run through the docs Jest project');
      folder = mkdtempSync(join(tmpdir(), prefix));
      return folder;
    },
  };
}

/**
 * The Jest route's starting point: a CommonJS NestJS 12 app (no "type": "module") with Jest, in the
 * shape `nest new` made before version 12 (its tsconfig, strict; its AppController and AppService),
 * written by hand: NOT what `nest new` makes today (consumer-app.spec.ts runs the real one). No Jest
 * config yet: the testing README's jest.config.js is the first. Versions follow this repository's,
 * so the npm cache serves them.
 */
export function scaffoldCommonJsNestApp(dir: string): void {
  const ours = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const pick = (from: Record<string, string>, names: string[]) =>
    Object.fromEntries(names.map((n) => [n, from[n]]));
  writeJson(join(dir, 'package.json'), {
    name: 'consumer-app-commonjs',
    version: '0.0.1',
    private: true,
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      'start:prod': 'node dist/main',
    },
    dependencies: pick(ours.dependencies, [
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/platform-express',
      'reflect-metadata',
      'rxjs',
    ]),
    devDependencies: pick(ours.devDependencies, [
      '@nestjs/testing',
      '@types/express',
      '@types/jest',
      '@types/node',
      'jest',
      'ts-jest',
      'typescript',
    ]),
  });
  writeJson(join(dir, 'tsconfig.json'), {
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      resolvePackageJsonExports: true,
      esModuleInterop: true,
      isolatedModules: true,
      declaration: true,
      removeComments: true,
      emitDecoratorMetadata: true,
      experimentalDecorators: true,
      target: 'ES2023',
      sourceMap: true,
      outDir: './dist',
      rootDir: './', // TypeScript 6 wants it explicit when src/ and test/ share one config
      incremental: true,
      skipLibCheck: true,
      strict: true,
      forceConsistentCasingInFileNames: true,
      types: ['node', 'jest'],
    },
    include: ['src', 'test'],
  });
  writeJson(join(dir, 'tsconfig.build.json'), {
    extends: './tsconfig.json',
    compilerOptions: { rootDir: './src', tsBuildInfoFile: './dist/.tsbuildinfo' },
    include: ['src'],
  });
  writeFiles(
    dir,
    Object.entries(EXISTING_APP_FILES).map(([path, code]) => ({ path, code })),
  );
}
