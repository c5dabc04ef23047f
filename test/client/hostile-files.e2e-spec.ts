/**
 * A crafted file must be refused, not parsed for ever: an ASF header whose first sub-object declares
 * size 0 (CVE-2026-31808) sent the upload sniffer of an old file-type into an endless chain of
 * microtasks. Through the client's three upload sources and the sandbox's upload route, in a child
 * process the test can kill: a hung parser starves its own event loop, so no in-process timer fires.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

interface Outcome {
  kind: string;
  ms: number;
  error?: string;
  local?: boolean;
  fields?: string[];
  status?: number;
  uploadsSent?: number;
  controlStatus?: number;
  storedDocuments?: number;
}

const DEADLINE_MS = 45_000;

function runChild(): Promise<{ outcomes: Outcome[]; code: number | null; killed: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-r',
        join(__dirname, '..', 'setup', 'source-packages.fixture.ts'),
        join(__dirname, 'hostile-file-child.fixture.ts'),
      ],
      { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, DEADLINE_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const outcomes = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Outcome);
      resolve({ outcomes, code, killed, stderr });
    });
  });
}

describe('hostile files: a crafted ASF header is refused in bounded time (CVE-2026-31808)', () => {
  let run: Awaited<ReturnType<typeof runChild>>;
  beforeAll(async () => {
    run = await runChild();
  }, DEADLINE_MS + 15_000);

  it('the child finished on its own (no source hung its process)', () => {
    expect({ killed: run.killed, code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({
      killed: false,
      code: 0,
      stderr: '',
    });
  });

  it.each(['buffer', 'path', 'stream'])(
    'uploadDocuments from a %s: PartnerLocalValidationError naming the file, nothing sent',
    (kind) => {
      const outcome = run.outcomes.find((o) => o.kind === kind);
      expect(outcome).toMatchObject({ error: 'PartnerLocalValidationError', local: true });
      expect(outcome?.fields?.some((f) => f.startsWith('files'))).toBe(true);
      // Seconds of margin for a loaded machine; the hang it guards against never ends.
      expect(outcome?.ms).toBeLessThan(10_000);
    },
  );

  it('none of the three reached the partner (no upload in the sandbox request log)', () => {
    expect(run.outcomes.find((o) => o.kind === 'client-sent')).toEqual({
      kind: 'client-sent',
      uploadsSent: 0,
    });
  });

  it("the sandbox's upload route answers 422, stores nothing, and its control API still answers", () => {
    expect(run.outcomes.find((o) => o.kind === 'sandbox-route')).toMatchObject({
      status: 422,
      controlStatus: 200,
      storedDocuments: 0,
    });
  });
});
