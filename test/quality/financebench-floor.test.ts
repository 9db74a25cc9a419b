/**
 * Quality floor: gold-page hit rate of research mode (medium effort, 4,000-token cap) on a fixed subset of
 * FinanceBench dev questions, over an index built by the real builder from only the filings those questions need,
 * queried through the pure core (the same runQuery the Worker runs; exact vector scans, no HNSW graphs, and
 * corpus statistics of these filings only, so the figure is close to, not equal to, npm run bench's).
 * Skipped when the shared data (../shared, or SHARED_DIR) is absent. README "Benchmark" documents the floor.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvidence } from '../../bench/lib/evidence';
import { answerSupport } from '../../bench/lib/score';
import { buildIndex } from '../../index-builder/build';
import { readCorpus } from '../../index-builder/read-corpus';
import type { IndexReader } from '../../src/core/index-reader';
import { runQuery } from '../../src/core/run-query';
import { decodeCatalog, decodeEmbedding, decodeLexicon, decodeManifest, decodeShard } from '../../src/format/codec';
import { ResearchRequest } from '../../src/schema/request';
import { normalizeQuery } from '../../src/text/normalize';

const SHARED = resolve(process.env.SHARED_DIR ?? resolve(__dirname, '../../../shared'));
const FB = join(SHARED, 'bench/financebench-dev.jsonl');
const FILINGS = join(SHARED, 'corpus/filings');
const AVAILABLE = existsSync(FB) && existsSync(join(FILINGS, 'pages.jsonl.gz'));
if (!AVAILABLE) console.warn(`quality floor SKIPPED: no shared data at ${SHARED} (set SHARED_DIR)`);

/** The fixed subset: every dev question about these filings (chosen for a mix of kinds and a small build). */
const FILINGS_IN_SUBSET = ['3M_2018_10K', '3M_2022_10K', 'ADOBE_2017_10K', 'AMCOR_2023_10K', 'BOEING_2022_10K', 'PEPSICO_2022_10K', 'NIKE_2019_10K', 'VERIZON_2022_10K'];

/**
 * The floors, slightly under what the system reached when they were set: gold-page hit 13 of these 15 questions
 * (0.867) and answer support 7 of 15 (0.467) on 2026-11-21 (line-item passes, issuer names out of filtered queries,
 * compact context lines; support scored with the named input rows of computed answers), so losing one hit or one
 * supported answer fails. Raise them when retrieval improves (the test prints the
 * current figures); README "Benchmark" has the full-corpus figures.
 */
const GOLD_PAGE_HIT_FLOOR = 0.85;
const ANSWER_SUPPORT_FLOOR = 0.45;

interface FbRow {
  id: string;
  question: string;
  answer: string;
  justification: string | null;
  doc_id: string;
  evidence: { doc_id: string; page: number }[];
}

async function writeSubsetCorpus(dir: string, docIds: ReadonlySet<string>) {
  const docs = readFileSync(join(FILINGS, 'documents.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && docIds.has((JSON.parse(l) as { doc_id: string }).doc_id));
  writeFileSync(join(dir, 'documents.jsonl'), docs.join('\n') + '\n');
  const lines: string[] = [];
  const input = createReadStream(join(FILINGS, 'pages.jsonl.gz')).pipe(createGunzip());
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    // The doc_id is the first field of every row; a prefix test avoids parsing 48k pages.
    const m = /^\{"doc_id": ?"([^"]+)"/.exec(line);
    if (m && docIds.has(m[1]!)) lines.push(line);
  }
  writeFileSync(join(dir, 'pages.jsonl'), lines.join('\n') + '\n');
}

describe.skipIf(!AVAILABLE)('quality floor on FinanceBench dev (research, medium, 4,000 tokens)', () => {
  let work: string;
  let reader: IndexReader;
  let questions: FbRow[];

  beforeAll(async () => {
    questions = readFileSync(FB, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as FbRow)
      .filter((q) => FILINGS_IN_SUBSET.includes(q.doc_id));
    work = mkdtempSync(join(tmpdir(), 'quality-floor-'));
    await writeSubsetCorpus(work, new Set(FILINGS_IN_SUBSET));
    const result = await buildIndex(await readCorpus(work), { outDir: join(work, 'artifacts'), graphMinStatements: Infinity });
    const read = (file: string) => new Uint8Array(readFileSync(join(result.dir, file)));
    const manifest = decodeManifest(readFileSync(join(result.dir, 'manifest.json'), 'utf8'));
    const catalog = decodeCatalog(read(manifest.catalog.file));
    const lexicon = decodeLexicon(read(manifest.lexicon.file));
    const embedding = decodeEmbedding(read(manifest.embedding.file));
    const shards = new Map<number, ReturnType<typeof decodeShard>>();
    reader = {
      manifest,
      catalog,
      lexicon: async () => lexicon,
      embedding: async () => embedding,
      shard: async (i) => {
        if (!shards.has(i)) shards.set(i, decodeShard(read(catalog.shards[i]!.file)));
        return shards.get(i)!;
      },
    };
  }, 120_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(`gold-page hit rate stays at or above ${GOLD_PAGE_HIT_FLOOR}, answer support at or above ${ANSWER_SUPPORT_FLOOR}`, async () => {
    expect(questions.length).toBeGreaterThanOrEqual(10);
    const docOf = new Map(reader.catalog.sources.map((s) => [s.id, s.doc_id]));
    const misses: string[] = [];
    let hits = 0;
    let supported = 0;
    for (const q of questions) {
      const req = ResearchRequest.parse({ query: q.question, mode: 'research', effort: 'medium', retrieval: { max_evidence_tokens: 4000 } });
      const { body } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
      const entries = parseEvidence(body.evidence);
      const returned = new Set(entries.flatMap((e) => e.occurrences.map((o) => `${docOf.get(o.sourceId)}#${o.page}`)));
      const text = entries.map((e) => e.text).join('\n');
      if (answerSupport({ answer: q.answer, justification: q.justification, question: q.question }, text).supported) supported++;
      if (q.evidence.some((g) => returned.has(`${g.doc_id}#${g.page}`))) hits++;
      else misses.push(q.id);
    }
    const rate = hits / questions.length;
    const support = supported / questions.length;
    console.log(`quality floor: gold-page hit ${hits}/${questions.length} = ${rate.toFixed(3)} (floor ${GOLD_PAGE_HIT_FLOOR}); misses: ${misses.join(', ')}`);
    console.log(`quality floor: answer support ${supported}/${questions.length} = ${support.toFixed(3)} (floor ${ANSWER_SUPPORT_FLOOR})`);
    expect(rate).toBeGreaterThanOrEqual(GOLD_PAGE_HIT_FLOOR);
    expect(support).toBeGreaterThanOrEqual(ANSWER_SUPPORT_FLOOR);
  });
});
