import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBuildArgs, runBuild } from '../../index-builder/cli/cli';

const SAMPLE = 'fixtures/sample-corpus/filings';
const work = mkdtempSync(join(tmpdir(), 'fers-build-args-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('build flags (index-builder/cli/cli.ts parseBuildArgs)', () => {
  it('reads --embedding-seed and refuses it where no model is learned', () => {
    expect(parseBuildArgs(['--embedding-seed', '7'])).toEqual({ embeddingSeed: 7 });
    expect(parseBuildArgs(['--learn-model', '--embedding-seed', '0'])).toEqual({ learnModel: true, embeddingSeed: 0 });
    // A merge embeds nothing: its partitions were embedded with the model job's model.
    expect(() => parseBuildArgs(['--merge', 'a', '--embedding-seed', '0'])).toThrow(/--merge/);
    for (const bad of [['x'], ['1.5'], ['4294967296']])
      expect(() => parseBuildArgs(['--embedding-seed', ...bad])).toThrow(/integer from 0/);
    // A missing value, or one that reads as a flag, is refused by the parser itself.
    expect(() => parseBuildArgs(['--embedding-seed'])).toThrow(/argument missing/);
    expect(() => parseBuildArgs(['--embedding-seed', '-1'])).toThrow(/ambiguous/);
    expect(() => parseBuildArgs(['--embedding-seed', '7', '--embedding-model', 'abc'])).toThrow(
      /not with --embedding-model/,
    );
    expect(() => parseBuildArgs(['--embedding-seed', '7', '--incremental'])).toThrow(/--incremental/);
  });

  it('reads --embedding-method and refuses it where no model is learned', () => {
    expect(parseBuildArgs(['--embedding-method', 'svd'])).toEqual({ embeddingMethod: 'svd' });
    expect(parseBuildArgs(['--embedding-method', 'projection', '--embedding-seed', '3'])).toEqual({
      embeddingMethod: 'projection',
      embeddingSeed: 3,
    });
    for (const bad of ['glove', 'SVD'])
      expect(() => parseBuildArgs(['--embedding-method', bad])).toThrow(/projection or svd/);
    expect(() => parseBuildArgs(['--embedding-method'])).toThrow(/embedding-method/);
    expect(() => parseBuildArgs(['--embedding-method', 'svd', '--embedding-model', 'abc'])).toThrow(
      /--embedding-method applies/,
    );
    expect(() => parseBuildArgs(['--embedding-method', 'svd', '--incremental'])).toThrow(/--incremental/);
  });

  it('learns the model with that seed: the same seed gives the same model, another seed another one', async () => {
    const build = (name: string, embeddingSeed?: number) =>
      runBuild(SAMPLE, join(work, name), {
        quiet: true,
        graphMinStatements: Infinity,
        ...(embeddingSeed === undefined ? {} : { embeddingSeed }),
      });
    const [a, b, c] = [await build('a', 7), await build('b', 7), await build('c')];
    expect(a.manifest.embedding_model).toBe(b.manifest.embedding_model);
    expect(a.manifest.embedding_model).not.toBe(c.manifest.embedding_model);
  });
});
