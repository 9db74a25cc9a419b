// The streaming builder (index-builder/build.ts) against its slow twin, the whole-corpus-in-memory builder it
// replaced (test/support/build-in-memory.ts): the same artifacts byte for byte, whatever order filings arrive in.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, type BuildResult } from '../../index-builder/build';
import { readCorpus, streamCorpus, type Filing } from '../../index-builder/read-corpus';
import { buildIndexInMemory } from '../support/build-in-memory';
import { filesOf } from '../support/files';

const SAMPLE = 'fixtures/sample-corpus/filings';
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'fers-stream-'));
  dirs.push(d);
  return d;
};
let filings: Filing[];
let twin: BuildResult;

beforeAll(async () => {
  filings = await readCorpus(SAMPLE);
  twin = await buildIndexInMemory(filings, { outDir: tmp(), graphMinStatements: 200 });
}, 120_000);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function expectSameArtifacts(a: BuildResult, b: BuildResult) {
  expect(a.version).toBe(b.version);
  const fa = filesOf(a.dir);
  const fb = filesOf(b.dir);
  expect([...fa.keys()].sort()).toEqual([...fb.keys()].sort());
  for (const [name, bytes] of fa) expect(bytes.equals(fb.get(name)!), name).toBe(true);
}

describe('streaming build vs the in-memory twin', () => {
  it('gives byte-identical artifacts (graphs included) from the corpus streamed one filing at a time', async () => {
    expect(twin.summary.graphs).toBeGreaterThan(0);
    const streamed = await buildIndex(streamCorpus(SAMPLE), { outDir: tmp(), graphMinStatements: 200 });
    expectSameArtifacts(streamed, twin);
    expect(streamed.summary).toMatchObject({ filings: twin.summary.filings, statements: twin.summary.statements, edges: twin.summary.edges });
    expect(streamed.summary.mergedTableRows).toBe(twin.summary.mergedTableRows);
  });

  it('gives the same artifacts whatever order the filings arrive in', async () => {
    const reversed = await buildIndex([...filings].reverse(), { outDir: tmp(), graphMinStatements: 200 });
    expectSameArtifacts(reversed, twin);
  });

  it('leaves only the version directory and LATEST behind (no spill or staging files)', async () => {
    const out = tmp();
    const result = await buildIndex(filings, { outDir: out, graphMinStatements: 200 });
    expect([...filesOf(join(out, 'sp500')).keys()].every((f) => f === 'LATEST' || f.startsWith(`${result.version}/`))).toBe(true);
  });
});

describe('streamCorpus', () => {
  it('yields the filings readCorpus reads (same documents, pages and metadata)', async () => {
    const streamed: Filing[] = [];
    for await (const f of streamCorpus(SAMPLE)) streamed.push(f);
    const byId = (list: Filing[]) => [...list].sort((a, b) => (a.doc.doc_id < b.doc.doc_id ? -1 : 1));
    expect(byId(streamed)).toEqual(filings);
  });

  it('refuses a pages file whose documents are not contiguous', async () => {
    const dir = tmp();
    mkdirSync(dir, { recursive: true });
    const doc = (id: string) => ({ doc_id: id, collection: 't', ticker: id, cik: null, company: id, form_type: '10-K', fiscal_year: 2023, fiscal_period: 'FY', period_of_report: '2023-12-31', fiscal_year_end: '12-31', filing_date: null, gics_sector: null, gics_sub_industry: null, num_pages: 1 });
    writeFileSync(join(dir, 'documents.jsonl'), [doc('A'), doc('B')].map((d) => JSON.stringify(d)).join('\n'));
    const page = (id: string, n: number) => JSON.stringify({ doc_id: id, page: n, text: 'Item 1. Business' });
    writeFileSync(join(dir, 'pages.jsonl'), [page('A', 0), page('B', 0), page('A', 1)].join('\n'));
    const drain = async () => {
      for await (const _ of streamCorpus(dir)) void _;
    };
    await expect(drain()).rejects.toThrow(/pages of A are not contiguous/);
  });
});
