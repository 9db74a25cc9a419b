import { readdirSync, readFileSync, statSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs may only name what the code has. The rule, kept simple on purpose:
 *
 * 1. Docs: README.md and every docs/**\/*.md. Only inline code spans (`like this`) outside fenced blocks are read;
 *    fenced blocks are examples of commands and output.
 * 2. A span is checked when it looks like one of these (anything else, prose in backticks, is not):
 *    - a repository path: it starts with a top-level folder of the repository (src/, index-format/, index-builder/,
 *      bench/, scripts/, test/, fixtures/, docs/) or is a file name at the root (`wrangler.toml`); it must exist. A
 *      path with a placeholder (`<id>`, `*`, `{`) is a pattern for generated files and is not checked.
 *    - an npm script (`npm run <name>`, or a bare `name:part` such as `bench:warm`; `node:` modules are not scripts):
 *    it must be a key of package.json "scripts".
 *    - identifiers: camelCase (`runQuery`), PascalCase of two or more words (`ResearchRequest`), SCREAMING_SNAKE
 *      (`GRAPH_MIN_PASS_RATE`), alone, called (`planPasses()`) or dotted (`RANKING.preferenceBonus`, each part
 *      with a capital checked): each must occur as a whole word in the source tree: the .ts/.mjs/.json/.toml/.yml
 *      files of src/, index-format/, index-builder/, bench/, scripts/ and test/, plus package.json and wrangler.toml
 *      (this file excluded, so the examples above do not count).
 */

const ROOT = join(import.meta.dirname, '../..');
const SOURCE_DIRS = ['src', 'index-format', 'index-builder', 'bench', 'scripts', 'test'];
const SOURCE_EXTENSIONS = new Set(['.ts', '.mjs', '.json', '.toml', '.yml', '.yaml']);
const ROOT_SOURCES = ['package.json', 'wrangler.toml'];
const PATH_ROOTS = ['src/', 'index-format/', 'index-builder/', 'bench/', 'scripts/', 'test/', 'fixtures/', 'docs/'];
const THIS_FILE = relative(ROOT, import.meta.filename);

function walk(dir: string, keep: (file: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, keep, out);
    else if (keep(path)) out.push(path);
  }
  return out;
}

function sourceWords(): Set<string> {
  const files = [
    ...SOURCE_DIRS.flatMap((d) => walk(join(ROOT, d), (f) => SOURCE_EXTENSIONS.has(extname(f)))),
    ...ROOT_SOURCES.map((f) => join(ROOT, f)),
  ].filter((f) => relative(ROOT, f) !== THIS_FILE);
  const words = new Set<string>();
  for (const f of files) for (const w of readFileSync(f, 'utf8').match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []) words.add(w);
  return words;
}

/** Inline code spans outside fenced blocks, with their line numbers. */
function codeSpans(markdown: string): { span: string; line: number }[] {
  const out: { span: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const m of text.matchAll(/`([^`\n]+)`/g)) out.push({ span: m[1]!.trim(), line: i + 1 });
  });
  return out;
}

const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;
const SCREAMING = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;
const looksLikeIdentifier = (w: string) => CAMEL.test(w) || PASCAL.test(w) || SCREAMING.test(w);

/** What a span asks to exist, or null when the rule does not check it. */
function checkOf(span: string): { kind: 'path' | 'script' | 'identifier'; names: string[] } | null {
  const npm = /^npm run ([\w:-]+)/.exec(span);
  if (npm) return { kind: 'script', names: [npm[1]!] };
  if (/^[a-z]+(:[a-z0-9-]+)+$/.test(span) && !span.startsWith('node:')) return { kind: 'script', names: [span] };
  const isPath = PATH_ROOTS.some((r) => span.startsWith(r)) || ROOT_SOURCES.includes(span);
  if (isPath) return /[<*{ ]/.test(span) ? null : { kind: 'path', names: [span.replace(/[:#].*$/, '')] };
  const bare = span.replace(/\(\)$/, '');
  const parts = bare.split('.');
  if (parts.every((p) => /^[A-Za-z_$][\w$]*$/.test(p)) && parts.some(looksLikeIdentifier)) {
    // In a dotted name an all-caps object (`RANKING`, `LIMITS`) is checked too; alone it may be an acronym.
    return {
      kind: 'identifier',
      names: parts.filter((p) => looksLikeIdentifier(p) || (parts.length > 1 && /^[A-Z][A-Z0-9_]*$/.test(p))),
    };
  }
  return null;
}

function docFiles(): string[] {
  return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'), (f) => f.endsWith('.md'))];
}

describe('identifiers quoted in the docs exist in the code', () => {
  const words = sourceWords();
  const scripts = new Set(
    Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
    ),
  );

  it('reads spans and classifies them by the rule', () => {
    expect(codeSpans('a `runQuery` b\n```\n`notRead`\n```\n`src/x.ts`').map((s) => s.span)).toEqual([
      'runQuery',
      'src/x.ts',
    ]);
    expect(checkOf('RANKING.preferenceBonus')).toEqual({ kind: 'identifier', names: ['RANKING', 'preferenceBonus'] });
    expect(checkOf('planPasses()')).toEqual({ kind: 'identifier', names: ['planPasses'] });
    expect(checkOf('npm run bench:warm -- <dir>')).toEqual({ kind: 'script', names: ['bench:warm'] });
    expect(checkOf('src/plan/passes.ts')).toEqual({ kind: 'path', names: ['src/plan/passes.ts'] });
    expect(checkOf('sp500/objects/<file stem>.<id>.bin')).toBeNull();
    expect(checkOf('max_evidence')).toBeNull();
    expect(checkOf('10K-Item-8')).toBeNull();
  });

  for (const file of docFiles()) {
    it(relative(ROOT, file), () => {
      const missing: string[] = [];
      for (const { span, line } of codeSpans(readFileSync(file, 'utf8'))) {
        const check = checkOf(span);
        if (!check) continue;
        for (const name of check.names) {
          const found =
            check.kind === 'path'
              ? existsSync(join(ROOT, name))
              : check.kind === 'script'
                ? scripts.has(name)
                : words.has(name);
          if (!found) missing.push(`line ${line}: ${check.kind} \`${name}\``);
        }
      }
      expect(missing, `${relative(ROOT, file)} names what the code does not have`).toEqual([]);
    });
  }
});
