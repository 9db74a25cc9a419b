/**
 * Writes the README's example response: builds the sample corpus (fixtures/sample-corpus) with the real builder
 * into a temporary folder, answers the README's call in-process through the query route's own functions
 * (validateQueryBody, answerQuery), and puts the formatted response between the README's markers.
 *   npx tsx scripts/readme-example.ts           rewrite README.md
 *   npx tsx scripts/readme-example.ts --check   exit 1 when README.md differs from a fresh run
 * test/unit/readme-example.test.ts runs the same generation; test/worker/readme-example.test.ts sends the call to
 * the Worker itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex } from '../index-builder/pipeline';
import { readCorpus } from '../index-builder/segment/read-corpus';
import { answerQuery, validateQueryBody } from '../src/routes/query';
import { openFileIndex } from '../test/support/file-index';
import { formatExample, README_EXAMPLE_REQUEST, readmeExampleBlock, withExampleBlock } from './readme-example-format';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const README_PATH = join(ROOT, 'README.md');

/** The README's example block, freshly generated against a new build of the sample corpus. */
export async function generateReadmeExample(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'fers-readme-'));
  try {
    const built = await buildIndex(await readCorpus(join(ROOT, 'fixtures/sample-corpus/filings')), { outDir: dir });
    const reader = openFileIndex(built.dir);
    const { body } = await answerQuery(
      validateQueryBody(structuredClone(README_EXAMPLE_REQUEST)),
      async () => reader,
      'masked',
    );
    return formatExample(body as Record<string, unknown>);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const readme = readFileSync(README_PATH, 'utf8');
  const block = await generateReadmeExample();
  if (process.argv.includes('--check')) {
    const same = readmeExampleBlock(readme) === block;
    console.log(same ? 'README example is current' : 'README example is stale: run npx tsx scripts/readme-example.ts');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(README_PATH, withExampleBlock(readme, block));
  console.log('README example written');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  });
}
