import { beforeAll, describe, expect, it } from 'vitest';
import readme from '../../README.md?raw';
import { formatExample, README_EXAMPLE_REQUEST, readmeExampleBlock } from '../../scripts/readme-example-format';
import { query, seedSampleIndex } from './helpers';

/**
 * The README's example was generated in-process (scripts/readme-example.ts, checked by
 * test/unit/readme-example.test.ts); here the same call goes through the Worker, so the README shows what a real
 * call returns.
 */
beforeAll(async () => {
  await seedSampleIndex();
});

describe('README example response', () => {
  it('is what the Worker answers to the README call', async () => {
    const { status, json } = await query(README_EXAMPLE_REQUEST);
    expect(status).toBe(200);
    expect(readmeExampleBlock(readme)).toBe(formatExample(json));
  });
});
