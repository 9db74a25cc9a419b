// Incremental builds (index-builder/incremental.ts) against their oracle twin: a full build of the same corpus with
// the previous version's embedding model gives the same artifacts byte for byte, and only the changed issuers are
// rebuilt.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../index-builder/build';
import { buildIndex } from '../../index-builder/pipeline';
import { incrementalBuild } from '../../index-builder/incremental';
import { loadModel } from '../../index-builder/vectors/model-store';
import { readCorpus, type Filing } from '../../index-builder/segment/read-corpus';
import { readFullCatalog } from '../support/file-index';
import { expectSameArtifacts } from '../support/files';
import { tempDirs } from '../support/temp-dirs';
import { openLocalBindings } from '../support/local-bindings';
import { publishVersion } from '../../index-builder/publish/publish';

const SAMPLE = 'fixtures/sample-corpus/filings';
const NEW_10Q = 'QVLT_2024Q1_10Q';
const tmp = tempDirs('fers-incr-');
let all: Filing[];
let out: string;
let previous: BuildResult;

beforeAll(async () => {
  all = await readCorpus(SAMPLE);
  out = tmp();
  previous = await buildIndex(
    all.filter((f) => f.doc.doc_id !== NEW_10Q),
    { outDir: out },
  );
}, 120_000);

const modelOf = (result: BuildResult) => loadModel(result.manifest.embedding_model!, join(out, 'sp500'));

/** The oracle: a full build of `filings` with the previous version's model, in a folder of its own. */
async function oracle(filings: Filing[]) {
  return buildIndex(filings, { outDir: tmp(), embeddingModel: await modelOf(previous) });
}

const shardFilesOf = (dir: string, ticker: string) =>
  readFullCatalog(dir)
    .shards.filter((s) => s.tickers.includes(ticker))
    .map((s) => s.file);

describe('incremental build', () => {
  it('adding a 10-Q rebuilds its issuer only and equals a full build with the same model', async () => {
    const incremental = await incrementalBuild(() => all, previous.dir, {
      outDir: out,
      embeddingModel: await modelOf(previous),
    });
    expect(incremental.rebuiltIssuers).toEqual(['QVLT']);
    expect(incremental.summary.reusedIssuers).toBe(2);
    const full = await oracle(all);
    expectSameArtifacts(incremental, full);
    // Its summary counts the reused issuers' statements and edges too.
    expect(incremental.summary).toMatchObject({
      statements: full.summary.statements,
      byKind: full.summary.byKind,
      byStatus: full.summary.byStatus,
      edges: full.summary.edges,
    });
    // The other issuers' shards are the previous version's bytes.
    for (const ticker of ['QSEP', 'ZNHF']) {
      for (const file of shardFilesOf(previous.dir, ticker)) {
        expect(readFileSync(join(incremental.dir, file)).equals(readFileSync(join(previous.dir, file))), file).toBe(
          true,
        );
      }
    }
    expect(incremental.summary.filings).toBe(all.length);
  });

  it(`publishing it after the previous version uploads only the rebuilt issuer's objects and the version's \
own`, async () => {
    const incremental = await incrementalBuild(() => all, previous.dir, {
      outDir: tmp(),
      embeddingModel: await modelOf(previous),
    });
    const storage = await openLocalBindings(tmp());
    try {
      await publishVersion(previous.dir, storage.target);
      const uploaded: string[] = [];
      const report = await publishVersion(incremental.dir, {
        ...storage.target,
        putObject: (k, b) => {
          uploaded.push(k);
          return storage.target.putObject(k, b);
        },
      });
      const byContent = uploaded.filter((k) => k.startsWith('sp500/objects/'));
      expect(byContent.length).toBeGreaterThan(0);
      expect(
        byContent.every((k) => /\/QVLT[-.]/.test(k)),
        byContent.join(', '),
      ).toBe(true);
      expect(
        uploaded.filter((k) => !byContent.includes(k)).every((k) => k.startsWith(`sp500/${incremental.version}/`)),
      ).toBe(true);
      // Skipped: every shard, graph and table of the two issuers the build reused.
      const reused = readFullCatalog(previous.dir).shards.filter((s) => !s.tickers.includes('QVLT'));
      expect(report.skipped).toBeGreaterThanOrEqual(reused.length + reused.filter((s) => s.graph_file).length + 2);
    } finally {
      await storage.dispose();
    }
  });

  it('a changed filing or a removed one rebuilds that issuer, and still equals the full build', async () => {
    const base = all.filter((f) => f.doc.doc_id !== NEW_10Q);
    const changed = base.map((f) =>
      f.doc.doc_id === 'ZNHF_2022_10K' ? { ...f, pages: [...f.pages.slice(0, -1), `${f.pages.at(-1)} Revised.`] } : f,
    );
    const removed = changed.filter((f) => f.doc.doc_id !== 'QSEP_2022_10K');
    const result = await incrementalBuild(() => removed, previous.dir, {
      outDir: out,
      embeddingModel: await modelOf(previous),
    });
    expect(result.rebuiltIssuers).toEqual(['QSEP', 'ZNHF']);
    expect(result.summary.reusedIssuers).toBe(1);
    expectSameArtifacts(result, await oracle(removed));
  });

  it('with nothing changed, gives the previous version again and rebuilds nothing', async () => {
    const same = all.filter((f) => f.doc.doc_id !== NEW_10Q);
    const result = await incrementalBuild(() => same, previous.dir, {
      outDir: tmp(),
      embeddingModel: await modelOf(previous),
    });
    expect(result.rebuiltIssuers).toEqual([]);
    expect(result.version).toBe(previous.version);
  });

  it('refuses another embedding model and a version without build state', async () => {
    const other = await buildIndex(all, { outDir: tmp(), embedding: { seed: 7 } });
    const foreign = await loadModel(other.manifest.embedding_model!, join(other.dir, '..'));
    await expect(incrementalBuild(() => all, previous.dir, { outDir: tmp(), embeddingModel: foreign })).rejects.toThrow(
      /reuses the previous version's embedding model/,
    );
    // A version whose filings an older builder extracted (before cover pages) is not carried over from.
    const state = JSON.parse(readFileSync(join(other.dir, 'build-state.json'), 'utf8'));
    writeFileSync(join(other.dir, 'build-state.json'), JSON.stringify({ ...state, extraction_version: undefined }));
    await expect(incrementalBuild(() => all, other.dir, { outDir: tmp(), embeddingModel: foreign })).rejects.toThrow(
      /extraction version 1; .*build without --incremental/,
    );
    rmSync(join(other.dir, 'build-state.json'));
    await expect(incrementalBuild(() => all, other.dir, { outDir: tmp(), embeddingModel: foreign })).rejects.toThrow(
      /no build-state.json/,
    );
  });
});
