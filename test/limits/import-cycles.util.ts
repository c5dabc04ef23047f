/**
 * Import cycles among the repository's TypeScript, found with the compiler's own scanner
 * (`ts.preProcessFile`) and resolver (`ts.resolveModuleName`, so relative paths and the tsconfig
 * `paths` of the workspace packages resolve as `tsc` resolves them). Type-only imports count: a
 * cycle through types still ties the files together (neither can move or be read alone).
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/** The compiler options of `<root>/tsconfig.json` (its `paths` included). */
export function compilerOptionsOf(root: string): ts.CompilerOptions {
  const file = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const config = read.config as { compilerOptions?: object };
  const converted = ts.convertCompilerOptionsFromJson(config.compilerOptions ?? {}, root, file);
  if (converted.errors.length > 0) {
    throw new Error(
      converted.errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'),
    );
  }
  // What tsc sets when it reads the file itself: `paths` are relative to the tsconfig's folder.
  return { ...converted.options, pathsBasePath: root };
}

/** The files tsconfig's `paths` map the packages' names to (their entry points), relative to `root`. */
export function pathTargets(root: string, options: ts.CompilerOptions): Set<string> {
  const base = options.pathsBasePath ? String(options.pathsBasePath) : root;
  return new Set(
    Object.values(options.paths ?? {})
      .flat()
      .map((target) => relative(root, join(base, target)).split(sep).join('/')),
  );
}

/** Each file's imports that resolve to another file of `files` (paths relative to `root`). */
export function importGraph(root: string, files: readonly string[], options: ts.CompilerOptions) {
  const known = new Set(files);
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const absolute = join(root, file);
    // Static imports and re-exports, `import x = require()`, `import()` and `require()` calls.
    const { importedFiles } = ts.preProcessFile(readFileSync(absolute, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, absolute, options, ts.sys, cache).resolvedModule;
      if (!resolved) continue;
      const target = relative(root, resolved.resolvedFileName).split(sep).join('/');
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * One cycle per strongly connected component of the graph (Tarjan), the shortest through the
 * component's first file, written `a -> b -> a`, with the component's size when it is larger.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (start: string) => {
    // Iterative, so a long import chain cannot overflow the call stack.
    const frames: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    const enter = (node: string) => {
      index.set(node, index.size);
      low.set(node, index.get(node)!);
      stack.push(node);
      onStack.add(node);
    };
    enter(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++];
        if (!index.has(target)) {
          enter(target);
          frames.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);

  return components
    .filter((c) => c.length > 1 || (graph.get(c[0]) ?? []).includes(c[0]))
    .map((component) => {
      const chain = shortestCycle(graph, component[0], new Set(component));
      const size = component.length > chain.length - 1 ? ` (${component.length} files tangled)` : '';
      return `${chain.join(' -> ')}${size}`;
    })
    .sort();
}

/** Breadth-first from `start` back to itself, inside one component. */
function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, start: string, within: Set<string>) {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const target of graph.get(node) ?? []) {
      if (!within.has(target)) continue;
      if (target === start) {
        const chain = [start];
        for (let at = node; at !== start; at = previous.get(at)!) chain.unshift(at);
        return [start, ...chain];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
