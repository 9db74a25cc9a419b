/**
 * What an index build depends on, as one hash: the corpus files' bytes and every local source file the builder's
 * CLI imports (found by esbuild's import graph, so a change to index-format/ counts, a change to
 * src/routes does not). The bench rebuilds only when this changes.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

async function hashFile(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * The builder's local source files (repo-relative, sorted) and the npm packages it imports with their installed
 * versions, from the import graph of index-builder/cli/cli.ts.
 */
export async function builderSources(repoRoot: string): Promise<{ files: string[]; packages: Record<string, string> }> {
  const result = await build({
    entryPoints: [join(repoRoot, 'index-builder/cli/cli.ts')],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    loader: { '.wasm': 'empty' },
  });
  const files = Object.keys(result.metafile.inputs)
    .map((p) => relative(repoRoot, join(process.cwd(), p)))
    .filter((p) => !p.startsWith('node_modules') && !p.startsWith('..'))
    .sort();
  const packages: Record<string, string> = {};
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imp of input.imports) {
      if (!imp.external || imp.path.startsWith('node:') || imp.path.startsWith('.')) continue;
      const name = imp.path.startsWith('@') ? imp.path.split('/').slice(0, 2).join('/') : imp.path.split('/')[0]!;
      const pkgJson = join(repoRoot, 'node_modules', name, 'package.json');
      packages[name] = existsSync(pkgJson)
        ? (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version
        : 'builtin';
    }
  }
  return { files, packages: Object.fromEntries(Object.entries(packages).sort()) };
}

export interface Fingerprint {
  hash: string;
  corpus: Record<string, string>;
  builder_files: number;
}

export async function fingerprint(repoRoot: string, filingsDir: string): Promise<Fingerprint> {
  const corpus: Record<string, string> = {};
  for (const name of readdirSync(filingsDir).sort()) {
    const p = join(filingsDir, name);
    if (statSync(p).isFile()) corpus[name] = await hashFile(p);
  }
  const { files, packages } = await builderSources(repoRoot);
  const h = createHash('sha256');
  h.update(JSON.stringify(corpus)).update(JSON.stringify(packages));
  for (const f of files)
    h.update(f)
      .update('\0')
      .update(readFileSync(join(repoRoot, f)))
      .update('\0');
  return { hash: h.digest('hex'), corpus, builder_files: files.length };
}
