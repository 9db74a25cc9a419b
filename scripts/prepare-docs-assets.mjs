#!/usr/bin/env node
// Copies the Swagger UI files the API reference page uses (GET /v2/<domain>/docs), and their licence texts, from the
// installed swagger-ui-dist into generated/docs/ as `<name>.txt`: wrangler (and the vitest plugin) turn an imported
// .txt file into a Text module, whose default export is the file's text. src/routes/docs.ts imports them on its
// first request, so no other route evaluates them. Copied byte for byte, rewritten only when their content changes.
//
// Usage: node scripts/prepare-docs-assets.mjs   (run as postinstall and in CI)

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PKG_DIR = join(ROOT, 'node_modules', 'swagger-ui-dist');
const OUT_DIR = join(ROOT, 'generated', 'docs');
/** What the page loads, and the licence texts that go with it. src/routes/docs.ts serves these names. */
const FILES = ['swagger-ui-bundle.js', 'swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui.css', 'LICENSE', 'NOTICE'];

if (!existsSync(join(PKG_DIR, 'package.json'))) {
  console.error('prepare-docs-assets: ERROR: node_modules/swagger-ui-dist not found (run npm install)');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(join(PKG_DIR, 'package.json'), 'utf8'));
mkdirSync(OUT_DIR, { recursive: true });
let written = 0;
for (const name of FILES) {
  const bytes = readFileSync(join(PKG_DIR, name));
  const out = join(OUT_DIR, name.endsWith('.txt') ? name : `${name}.txt`);
  if (existsSync(out) && readFileSync(out).equals(bytes)) continue;
  writeFileSync(out, bytes);
  written++;
}
// A file left from another version's list is removed.
const kept = FILES.map((name) => (name.endsWith('.txt') ? name : `${name}.txt`));
for (const name of readdirSync(OUT_DIR)) if (!kept.includes(name)) rmSync(join(OUT_DIR, name));
console.log(`prepare-docs-assets: swagger-ui-dist@${version} -> generated/docs/ (${written} file(s) written)`);
