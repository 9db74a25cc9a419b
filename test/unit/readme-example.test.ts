import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateReadmeExample, README_PATH } from '../../scripts/readme-example';
import { readmeExampleBlock } from '../../scripts/readme-example-format';

/**
 * The README's example response is generated (scripts/readme-example.ts) against a fresh build of the sample corpus;
 * this fails when the server's answer to that call has changed and the README was not regenerated.
 */
describe('README example response', () => {
  it('is what the query route answers on the sample index today', async () => {
    const inReadme = readmeExampleBlock(readFileSync(README_PATH, 'utf8'));
    expect(inReadme, 'README.md has no readme-example markers').not.toBeNull();
    const fresh = await generateReadmeExample();
    expect(inReadme, 'README example is stale: run npx tsx scripts/readme-example.ts').toBe(fresh);
  });
});
