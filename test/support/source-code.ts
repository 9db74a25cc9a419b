import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@babel/parser';

/**
 * The project's own TypeScript read as syntax trees, for tests about the code's shape: how long its functions are
 * and which folders import which. TypeScript 7 (the native compiler) has no JavaScript API, so @babel/parser with
 * its typescript plugin reads the files; the checks only need positions and import declarations.
 */

/** A syntax node: the parser's nodes are plain objects with a `type`. */
interface AstNode {
  type: string;
  loc?: { start: { line: number }; end: { line: number } };
  [key: string]: unknown;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

const readSource = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Every .ts file below `dir` (a path relative to the repository), declaration files left out, sorted. */
export function typeScriptFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(relative(ROOT, path).split(sep).join('/'));
    }
  };
  walk(join(ROOT, dir));
  return out.sort();
}

export function parseTypeScript(code: string): AstNode {
  return parse(code, { sourceType: 'module', plugins: ['typescript'] }) as unknown as AstNode;
}

const SKIPPED_KEYS = new Set([
  'loc',
  'range',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'comments',
  'tokens',
]);

function children(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (SKIPPED_KEYS.has(key) || !value || typeof value !== 'object') continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v && typeof v === 'object' && typeof (v as AstNode).type === 'string') out.push(v as AstNode);
    }
  }
  return out;
}

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

function keyName(key: unknown): string | null {
  const k = key as AstNode | undefined;
  if (!k) return null;
  if (k.type === 'Identifier') return k.name as string;
  if (k.type === 'PrivateName') return `#${(k.id as AstNode).name as string}`;
  if (k.type === 'StringLiteral' || k.type === 'NumericLiteral') return String(k.value);
  return null;
}

export interface FunctionSpan {
  /** `name`, `Class.method`, or `outer > (arrow at line N)` for an unnamed function inside a named one. */
  name: string;
  line: number;
  /** Lines from the first line of its signature to its closing brace, both included. */
  lines: number;
}

/** Every function of a module (declarations, methods, function and arrow expressions) with its length in lines. */
export function functionSpans(code: string): FunctionSpan[] {
  const out: FunctionSpan[] = [];
  // `owner`: the enclosing function's or class's name; `named`: the name the parent gives this node, if any.
  const visit = (node: AstNode, owner: string, named: string | null) => {
    let inner = owner;
    if (FUNCTION_TYPES.has(node.type)) {
      const line = node.loc!.start.line;
      const own =
        node.type === 'FunctionDeclaration'
          ? keyName(node.id)
          : node.type.endsWith('Method')
            ? keyName(node.key)
            : named;
      const qualified = own
        ? owner && node.type.endsWith('Method')
          ? `${owner}.${own}`
          : own
        : `${owner || '(module)'} > (${node.type === 'ArrowFunctionExpression' ? 'arrow' : 'function'} at line ` +
          `${line})`;
      out.push({ name: qualified, line, lines: node.loc!.end.line - line + 1 });
      inner = qualified;
    } else if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
      inner = keyName(node.id) ?? named ?? owner;
    }
    for (const child of children(node)) {
      let childName: string | null = null;
      if (node.type === 'VariableDeclarator' && child === node.init) childName = keyName(node.id);
      else if (
        (node.type === 'ClassProperty' || node.type === 'ClassPrivateProperty' || node.type === 'ObjectProperty') &&
        child === node.value
      ) {
        const key = keyName(node.key);
        childName = key && node.type !== 'ObjectProperty' && inner ? `${inner}.${key}` : key;
      }
      visit(child, inner, childName);
    }
  };
  visit(parseTypeScript(code), '', null);
  return out;
}

export interface ImportEdge {
  /** The imported module as written ('../schema/request', 'zod'). */
  specifier: string;
  line: number;
}

/**
 * The imports of a module that exist at run time: static imports and re-exports other than `import type` /
 * `export type` (and other than `import { type A, type B }`, which compiles to nothing), bare imports for their
 * side effects, and `import()` expressions. A value import used only as a type counts: the syntax is what says
 * whether an import is a type, so such an import should say `import type`.
 */
export function runtimeImports(code: string): ImportEdge[] {
  return moduleImports(code, { types: false });
}

/**
 * Every module a module names: its runtime imports (runtimeImports) and, with `types`, its type-only imports and
 * re-exports and its import types (`typeof import('./x')`, `import('./x').T`) too. A type import ties two modules as
 * much as a value import does for the reader: neither can be understood or moved without the other.
 */
export function moduleImports(code: string, { types }: { types: boolean }): ImportEdge[] {
  const out: ImportEdge[] = [];
  const add = (source: unknown, node: AstNode) => {
    const s = source as AstNode | undefined;
    if (s?.type === 'StringLiteral') out.push({ specifier: s.value as string, line: node.loc!.start.line });
  };
  const onlyTypes = (specifiers: unknown) => {
    const list = (specifiers as AstNode[] | undefined) ?? [];
    return list.length > 0 && list.every((sp) => sp.importKind === 'type' || sp.exportKind === 'type');
  };
  const visit = (node: AstNode) => {
    if (node.type === 'ImportDeclaration') {
      if (types || (node.importKind !== 'type' && node.importKind !== 'typeof' && !onlyTypes(node.specifiers)))
        add(node.source, node);
      return;
    }
    if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') {
      if (node.source && (types || (node.exportKind !== 'type' && !onlyTypes(node.specifiers)))) add(node.source, node);
    }
    if (node.type === 'ImportExpression') add(node.source, node);
    if (node.type === 'CallExpression' && (node.callee as AstNode).type === 'Import')
      add((node.arguments as AstNode[])[0], node);
    if (types && node.type === 'TSImportType') {
      const argument = (node.source ?? node.argument) as AstNode | undefined;
      add(argument?.type === 'TSLiteralType' ? argument.literal : argument, node);
    }
    for (const child of children(node)) visit(child);
  };
  visit(parseTypeScript(code));
  return out;
}

/**
 * A relative specifier of `fromFile` as a repository path (`src/schema/request.ts`); null for a package. A path that
 * is not there (a file generated at install time) is returned as written.
 */
export function resolveImport(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(dirname(join(ROOT, fromFile)), specifier);
  const found = [base, `${base}.ts`, join(base, 'index.ts')].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
  return relative(ROOT, found ?? base)
    .split(sep)
    .join('/');
}

/** A module's folder under `root` ('src/filters/parse.ts' -> 'filters'); a file directly in `root` is its own node. */
export function folderOf(root: string, file: string): string {
  const rest = file.slice(root.length + 1);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash);
}

export interface FolderEdge {
  from: string;
  to: string;
  /** The module imports behind it: `filters/parse.ts:2 -> schema/request.ts`. */
  imports: string[];
}

/**
 * The imports between the folders of `root` (one folder importing another; a folder's own imports left out): runtime
 * imports, and type imports too with `types`.
 */
export function folderGraph(
  root: string,
  { types = false, read = readSource }: { types?: boolean; read?: (file: string) => string } = {},
): FolderEdge[] {
  const show = (path: string) => path.slice(root.length + 1);
  return importGraph(typeScriptFiles(root), (path) => (path.startsWith(`${root}/`) ? folderOf(root, path) : null), {
    types,
    read,
    show,
  });
}

/**
 * The imports between top-level parts of the repository (`src`, `index-format`, `index-builder`): an edge for each
 * part that imports a module of another part (packages and folders outside `parts` left out), type imports included.
 */
export function partGraph(parts: readonly string[], read: (file: string) => string = readSource): FolderEdge[] {
  const partOf = (path: string) => parts.find((p) => path.startsWith(`${p}/`)) ?? null;
  return importGraph(
    parts.flatMap((p) => typeScriptFiles(p)),
    partOf,
    { types: true, read, show: (path) => path },
  );
}

/** The edges between the nodes (`nodeOf` a module; null: not in the graph) that these files' imports make. */
function importGraph(
  files: readonly string[],
  nodeOf: (path: string) => string | null,
  { types, read, show }: { types: boolean; read: (file: string) => string; show: (path: string) => string },
): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const file of files) {
    const from = nodeOf(file);
    if (!from) continue;
    for (const { specifier, line } of moduleImports(read(file), { types })) {
      const target = resolveImport(file, specifier);
      const to = target && nodeOf(target);
      if (!target || !to || to === from) continue;
      const key = `${from}\0${to}`;
      let edge = edges.get(key);
      if (!edge) edges.set(key, (edge = { from, to, imports: [] }));
      edge.imports.push(`${show(file)}:${line} -> ${show(target)}`);
    }
  }
  return [...edges.values()];
}

/**
 * The cycles of a directed graph as its strongly connected components of two or more nodes (Tarjan's algorithm),
 * each sorted, the list sorted: every folder of a component reaches every other through runtime imports.
 */
export function cycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return components.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** One call of an imported function inside a function's body: the callee's local name and its module. */
export interface WalkStop {
  name: string;
  module: string;
  line: number;
}

/**
 * Following a request through the code: the calls `fn` (a function declared in the module at `file`) makes to
 * functions imported at run time from other project modules, in source order. Each is a stop in the module that
 * defines the callee; a stop in a module already visited is a return (stops minus distinct modules).
 */
export function callWalk(
  file: string,
  fn: string,
  read: (file: string) => string = readSource,
): { stops: WalkStop[]; returns: number } {
  const ast = parseTypeScript(read(file));
  const moduleOf = new Map<string, string>();
  let target: AstNode | null = null;
  const find = (node: AstNode) => {
    if (node.type === 'ImportDeclaration' && node.importKind !== 'type') {
      const module = resolveImport(file, (node.source as AstNode).value as string);
      for (const sp of (node.specifiers as AstNode[]) ?? []) {
        if (module && sp.importKind !== 'type') moduleOf.set((sp.local as AstNode).name as string, module);
      }
      return;
    }
    if (node.type === 'FunctionDeclaration' && (node.id as AstNode | null)?.name === fn) target = node;
    for (const child of children(node)) find(child);
  };
  find(ast);
  if (!target) throw new Error(`${file} declares no function ${fn}`);
  const stops: WalkStop[] = [];
  const visit = (node: AstNode) => {
    if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const callee = node.callee as AstNode;
      const module = callee.type === 'Identifier' ? moduleOf.get(callee.name as string) : undefined;
      if (module) stops.push({ name: callee.name as string, module, line: node.loc!.start.line });
    }
    for (const child of children(node).sort((a, b) => (a.loc?.start.line ?? 0) - (b.loc?.start.line ?? 0)))
      visit(child);
  };
  visit((target as AstNode).body as AstNode);
  return { stops, returns: stops.length - new Set(stops.map((s) => s.module)).size };
}
