// The frozen word-vector model (index-builder/vectors/model-store.ts): written by every build, reusable by id or path,
// so
// that adding filings leaves the vectors of the others unchanged.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../index-builder/build';
import { buildIndex } from '../../index-builder/pipeline';
import { decodeModel, embeddingSample, loadModel } from '../../index-builder/vectors/model-store';
import { readCorpus, type Filing } from '../../index-builder/segment/read-corpus';
import { embedTokens } from '../../index-format/embed';
import { buildIndexInMemory } from '../support/build-in-memory';
import { openFileIndex } from '../support/file-index';
import { filesOf } from '../support/files';
import { tempDirs } from '../support/temp-dirs';

const SAMPLE = 'fixtures/sample-corpus/filings';
const tmp = tempDirs('fers-model-');
let filings: Filing[];
let full: BuildResult;
let fullOut: string;

beforeAll(async () => {
  filings = await readCorpus(SAMPLE);
  fullOut = tmp();
  full = await buildIndex(filings, { outDir: fullOut });
}, 120_000);

const modelFile = (out: string, id: string) => join(out, 'sp500', 'models', `${id}.bin`);

/** The vectors a version's term blocks carry for some terms, as the Worker reads them. */
async function termVectors(dir: string, terms: string[]) {
  const { model } = await openFileIndex(dir).terms(terms);
  return new Map(model.vocab.map((t, i) => [t, [...model.vectors.subarray(i * model.dim, (i + 1) * model.dim)]]));
}

describe('embedding model artifact', () => {
  it('every build writes its model under its id and names it in the manifest', async () => {
    const id = full.manifest.embedding_model!;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(full.summary.embeddingModel).toBe(id);
    expect(full.summary.embeddingSampleFilings).toBe(9);
    const { model } = await loadModel(id, join(fullOut, 'sp500'));
    // The term blocks copy the model's rows.
    const terms = ['revenue', 'cash', 'segment'].filter((t) => model.vocabIndex.has(t));
    expect(terms.length).toBeGreaterThan(1);
    const carried = await termVectors(full.dir, terms);
    for (const t of terms) {
      const row = model.vocabIndex.get(t)!;
      expect(carried.get(t), t).toEqual([...model.vectors.subarray(row * model.dim, (row + 1) * model.dim)]);
    }
  });

  it(`svd: stores the common component it removed, and a query embedded from the term blocks (as the Worker does) has \
none of it`, async () => {
    const svdOut = tmp();
    const svd = await buildIndex(filings, { outDir: svdOut, embedding: { method: 'svd' } });
    expect(svd.manifest.embedding_model).not.toBe(full.manifest.embedding_model);
    expect((await loadModel(full.manifest.embedding_model!, join(fullOut, 'sp500'))).model.common).toBeNull();
    const { model } = await loadModel(svd.manifest.embedding_model!, join(svdOut, 'sp500'));
    const u = model.common!;
    expect(u).toHaveLength(model.dim);
    const query = ['revenue', 'customers', 'segment', 'risk', 'the', 'cash'];
    const { model: fromBlocks } = await openFileIndex(svd.dir).terms(query);
    expect(fromBlocks.vocab.length).toBeGreaterThan(3);
    const v = embedTokens(fromBlocks, query);
    const along = v.reduce((s, x, d) => s + x * u[d]!, 0);
    expect(Math.abs(along)).toBeLessThan(0.02);
  });

  it(`a build that reuses the model (by id or by path) gives the same version as the build that learned \
it`, async () => {
    const byId = tmp();
    const reused = await buildIndex(filings, {
      outDir: byId,
      embeddingModel: await loadModel(full.manifest.embedding_model!, join(fullOut, 'sp500')),
    });
    expect(reused.version).toBe(full.version);
    expect(reused.summary.embeddingSampleFilings).toBeNull();
    const byPath = await buildIndex(filings, {
      outDir: tmp(),
      embeddingModel: await loadModel(modelFile(fullOut, full.manifest.embedding_model!), '/nowhere'),
    });
    expect(byPath.version).toBe(full.version);
  });

  it(`a corpus one filing short, built with the full corpus model, carries the same term vectors (learning its own \
changes them)`, async () => {
    const fewer = filings.filter((f) => f.doc.doc_id !== filings[3]!.doc.doc_id);
    const learned = await buildIndex(fewer, { outDir: tmp() });
    const reusedOut = tmp();
    const reused = await buildIndex(fewer, {
      outDir: reusedOut,
      embeddingModel: await loadModel(full.manifest.embedding_model!, join(fullOut, 'sp500')),
    });
    expect(learned.manifest.embedding_model).not.toBe(full.manifest.embedding_model);
    expect(reused.manifest.embedding_model).toBe(full.manifest.embedding_model);
    expect(existsSync(join(reusedOut, 'sp500', 'models'))).toBe(false); // nothing learned, nothing written
    const terms = ['revenue', 'cash', 'segment'];
    expect(await termVectors(reused.dir, terms)).toEqual(await termVectors(full.dir, terms));
    expect(await termVectors(learned.dir, terms)).not.toEqual(await termVectors(full.dir, terms));
  });

  it(`learns from a bounded, deterministic sample of filings: the streaming build equals its twin, in any \
order`, async () => {
    const embedding = { sampleFilings: 4 };
    const twin = await buildIndexInMemory(filings, { outDir: tmp(), embedding });
    const streamed = await buildIndex([...filings].reverse(), { outDir: tmp(), embedding });
    expect(streamed.summary.embeddingSampleFilings).toBe(4);
    expect(streamed.version).toBe(twin.version);
    const a = filesOf(streamed.dir);
    const b = filesOf(twin.dir);
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
    expect(streamed.manifest.embedding_model).not.toBe(full.manifest.embedding_model);
  });

  it('svd: the streaming build equals its in-memory twin, in any order', async () => {
    const embedding = { method: 'svd', sampleFilings: 4 } as const;
    const twin = await buildIndexInMemory(filings, { outDir: tmp(), embedding });
    const streamed = await buildIndex([...filings].reverse(), { outDir: tmp(), embedding });
    expect(streamed.version).toBe(twin.version);
    expect(streamed.manifest.embedding_model).toBe(twin.manifest.embedding_model);
  });

  it('a sample is the same set whatever the input order, and everything up to the limit', () => {
    const ids = filings.map((f) => f.doc.doc_id);
    expect(embeddingSample(ids, 400)).toEqual(new Set(ids));
    const picked = embeddingSample(ids, 3);
    expect(picked.size).toBe(3);
    expect(embeddingSample([...ids].reverse(), 3)).toEqual(picked);
  });

  it('refuses an unknown id and a damaged file, saying where it looked', async () => {
    await expect(loadModel('0123456789abcdef', join(fullOut, 'sp500'))).rejects.toThrow(/no such model.*models/);
    const bytes = readFileSync(modelFile(fullOut, full.manifest.embedding_model!));
    bytes[bytes.length - 1]! ^= 0xff;
    const damaged = join(tmp(), 'damaged.bin');
    writeFileSync(damaged, bytes);
    await expect(loadModel(damaged, '/nowhere')).rejects.toThrow(/damaged/);
    expect(() => decodeModel(new Uint8Array(readFileSync(join(full.dir, 'directory.bin'))))).toThrow();
  });
});
