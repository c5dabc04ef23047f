/**
 * Typechecks README blocks (readme-blocks.fixture.ts says how a block is read) in one TypeScript program
 * with the repository's tsconfig.json (strict; the packages map to their sources), from memory:
 * nothing is written to disk. A variable typed `any` is an error too (`any` would let an example
 * compile whatever the API became). Each block gets the diagnostics of its own virtual file, with the
 * position translated back to the README line.
 */
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { EXISTING_APP_FILES, FRAGMENT_MODULES, REPO_ROOT, type ReadmeBlock } from './readme-blocks.fixture';

/** Inside the repository, so `@nestjs/*` and the other packages resolve from its node_modules. */
const VIRTUAL_ROOT = join(REPO_ROOT, '.readme-blocks');

interface VirtualFile {
  block: ReadmeBlock;
  text: string;
  /** Lines added before the block's first line (imports, the marker's prelude). */
  headerLines: number;
}

export interface BlockReport {
  block: ReadmeBlock;
  /** `README.md:42:7 error TS2304: Cannot find name 'x'.`, one per diagnostic; empty when it compiles. */
  errors: string[];
}

function slug(readme: string): string {
  return readme.replace(/[^\w.-]+/g, '_');
}

function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(REPO_ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  return {
    ...parsed.options,
    noEmit: true,
    incremental: false,
    composite: false,
    declaration: false,
    sourceMap: false,
    tsBuildInfoFile: undefined,
  };
}

function ancestors(file: string): string[] {
  const out: string[] = [];
  for (let d = dirname(file); d.startsWith(VIRTUAL_ROOT); d = dirname(d)) out.push(d);
  return out;
}

type SourceCache = Map<string, ts.SourceFile | undefined>;

/** A host that serves the virtual files; `cache` shares parsed real files between programs. */
function createHost(
  options: ts.CompilerOptions,
  virtual: Map<string, string>,
  cache: SourceCache,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  const dirs = new Set([...virtual.keys()].flatMap((f) => ancestors(f)));
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  // Module resolution skips directories that do not exist: the virtual ones do.
  host.directoryExists = (d) => dirs.has(d) || (directoryExists?.call(host, d) ?? ts.sys.directoryExists(d));
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, onError, create) => {
    const text = virtual.get(f);
    if (text !== undefined) return ts.createSourceFile(f, text, lang, true);
    if (!cache.has(f)) cache.set(f, getSourceFile.call(host, f, lang, onError, create));
    return cache.get(f);
  };
  return host;
}

/** The names each of FRAGMENT_MODULES exports, first module first. */
function exportedNames(options: ts.CompilerOptions, cache: SourceCache): Map<string, string> {
  const probe = join(VIRTUAL_ROOT, 'probe.ts');
  const text = FRAGMENT_MODULES.map((m, i) => `import * as m${i} from '${m}';`).join('\n');
  const program = ts.createProgram([probe], options, createHost(options, new Map([[probe, text]]), cache));
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe)!;
  const owner = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const module = (statement.moduleSpecifier as ts.StringLiteral).text;
    const symbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (!symbol) throw new Error(`README fragments: cannot resolve ${module} from the repository`);
    for (const exported of checker.getExportsOfModule(symbol)) {
      if (!owner.has(exported.name) && exported.name !== 'default') owner.set(exported.name, module);
    }
  }
  return owner;
}

const DECLARATION_PARENTS = new Set([
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.Parameter,
  ts.SyntaxKind.BindingElement,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ImportSpecifier,
  ts.SyntaxKind.ImportClause,
  ts.SyntaxKind.NamespaceImport,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.TypeParameter,
]);

/** Names a fragment uses but does not declare or import (property names excluded). */
function freeNames(code: string): Set<string> {
  const source = ts.createSourceFile('fragment.mts', code, ts.ScriptTarget.Latest, true);
  const used = new Set<string>();
  const declared = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const named = parent as ts.Node & { name?: ts.Node };
      if (DECLARATION_PARENTS.has(parent.kind) && named.name === node) declared.add(node.text);
      else if (ts.isPropertyAccessExpression(parent) && parent.name === node) return;
      else if (ts.isQualifiedName(parent) && parent.right === node) return;
      else if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent)) && parent.name === node)
        return;
      else if (ts.isPropertyDeclaration(parent) && parent.name === node) return;
      else used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const name of declared) used.delete(name);
  return used;
}

function fragmentHeader(
  block: ReadmeBlock & { role: { kind: 'fragment' } },
  owner: Map<string, string>,
): string {
  const wanted = new Map<string, string[]>();
  for (const name of freeNames(`${block.role.prelude}\n${block.code}`)) {
    const module = owner.get(name);
    if (module) wanted.set(module, [...(wanted.get(module) ?? []), name]);
  }
  const imports = [...wanted].map(([m, names]) => `import { ${names.sort().join(', ')} } from '${m}';`);
  return [...imports, block.role.prelude].filter(Boolean).join('\n') + '\n';
}

/** Where a README's example app (its `file:` blocks) lives. */
function appDir(readme: string): string {
  return join(VIRTUAL_ROOT, slug(readme), 'app');
}

function virtualPath(block: ReadmeBlock): string {
  const dir = join(VIRTUAL_ROOT, slug(block.readme));
  if (block.role.kind === 'file') return join(appDir(block.readme), block.role.path);
  // Fragments are ES modules, so they may await at the top level as a test body or a script does.
  return join(dir, `L${block.line}.${block.role.kind === 'fragment' ? 'mts' : 'ts'}`);
}

function locate(file: VirtualFile, diagnostic: ts.Diagnostic): string {
  const { block } = file;
  const code = diagnostic.code ? `TS${diagnostic.code}` : '(typed any)';
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
  if (!diagnostic.file || diagnostic.start === undefined)
    return `${block.readme}:${block.line} error ${code}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  if (line < file.headerLines)
    return `${block.readme}:${block.line} (in the block's fragment marker or the imports added for it: ${diagnostic.file.text.split('\n')[line].trim()}) error ${code}: ${message}`;
  return `${block.readme}:${block.line + line - file.headerLines}:${character + 1} error ${code}: ${message}`;
}

export function typecheckBlocks(blocks: ReadmeBlock[]): { reports: BlockReport[]; elsewhere: string[] } {
  const options = compilerOptions();
  const cache: SourceCache = new Map();
  const owner = exportedNames(options, cache);
  const files = new Map<string, VirtualFile>();
  for (const block of blocks) {
    const path = virtualPath(block);
    if (files.has(path)) throw new Error(`${block.readme}:${block.line}: a second block for ${path}`);
    const header = block.role.kind === 'fragment' ? fragmentHeader(block as never, owner) : '';
    // `export {}` keeps a block without imports a module, so blocks never share globals.
    const text = `${header}${block.code}\nexport {};\n`;
    files.set(path, { block, text, headerLines: header.split('\n').length - 1 });
  }
  const virtual = new Map([...files].map(([p, f]) => [p, f.text]));
  // The example app is added to an existing one: its files compile with that app's (an error in
  // those is reported with the others outside the blocks).
  for (const readme of new Set(blocks.filter((b) => b.role.kind === 'file').map((b) => b.readme))) {
    for (const [path, text] of Object.entries(EXISTING_APP_FILES)) {
      const at = join(appDir(readme), path);
      if (!virtual.has(at)) virtual.set(at, text);
    }
  }
  const program = ts.createProgram([...virtual.keys()], options, createHost(options, virtual, cache));
  const byFile = new Map<string, string[]>();
  const elsewhere: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? files.get(diagnostic.file.fileName) : undefined;
    if (file) {
      byFile.set(diagnostic.file!.fileName, [
        ...(byFile.get(diagnostic.file!.fileName) ?? []),
        locate(file, diagnostic),
      ]);
    } else {
      const where = diagnostic.file ? relative(REPO_ROOT, diagnostic.file.fileName) : 'options';
      elsewhere.push(
        `${where}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
      );
    }
  }
  // An example whose values come out `any` compiles whatever the API does: it proves nothing.
  const checker = program.getTypeChecker();
  for (const [path, file] of files) {
    const source = program.getSourceFile(path)!;
    const visit = (node: ts.Node): void => {
      if ((ts.isVariableDeclaration(node) || ts.isBindingElement(node)) && ts.isIdentifier(node.name)) {
        if (checker.getTypeAtLocation(node.name).flags & ts.TypeFlags.Any) {
          const at = { file: source, start: node.name.getStart(), code: 0 } as ts.Diagnostic;
          const message = `'${node.name.text}' is typed any: the example no longer shows the API's types`;
          byFile.set(path, [...(byFile.get(path) ?? []), locate(file, { ...at, messageText: message })]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return {
    reports: [...files].map(([path, file]) => ({ block: file.block, errors: byFile.get(path) ?? [] })),
    elsewhere,
  };
}
