// The ranking module (src/search/ranking.ts): its parameters are the ones docs/PARAMETERS.md documents, and a chain's
// explain adds up to its relevance and rank score.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/core/run-query';
import { chainScore, RANKING } from '../../src/search/ranking';
import { buildChains, textEntryTerms } from '../../src/evidence/chains';
import { EFFORT_PLANS } from '../../src/search/effort';
import { lexicalQuery } from '../../src/query/terms';
import { retrieve, shardsOfHits } from '../../src/search/retrieve';
import { tokenize } from '../../src/text/tokenize';
import { openFileIndex } from '../support/file-index';
import { buildSample } from '../support/sample-build';

/** Every numeric field of RANKING, as [dotted path, value]. */
function leaves(o: object, prefix = 'RANKING'): [string, number][] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'number' ? [[`${prefix}.${k}`, v] as [string, number]] : leaves(v as object, `${prefix}.${k}`)));
}

describe('RANKING', () => {
  it('every parameter is documented in docs/PARAMETERS.md with its value', () => {
    const doc = readFileSync('docs/PARAMETERS.md', 'utf8');
    for (const [path, value] of leaves(RANKING)) {
      const at = doc.indexOf(`\`${path}\``);
      expect(at, `${path} not in docs/PARAMETERS.md`).toBeGreaterThanOrEqual(0);
      const line = doc.slice(doc.lastIndexOf('\n', at) + 1, doc.indexOf('\n', at));
      const next = doc.slice(at, doc.indexOf('\n', doc.indexOf('\n', at) + 1)); // prose may wrap once
      expect(`${line}\n${next}`, path).toContain(String(value));
    }
  });

  it('chainScore sums the anchor, a share of each mate and the bonuses', () => {
    const s = chainScore(0.03, [0.02, 0.01], true, true);
    expect(s.total).toBeCloseTo(0.03 + 0.1 * 0.03 + 0.05 + 0.1, 12);
    expect(s.anchor + s.mates + s.graphBonus + s.namedRowBonus).toBeCloseTo(s.total, 12);
  });
});

describe('chain explain', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());

  it('reproduces each chain relevance and rank score from the parts', async () => {
    // Whole shards: textEntryTerms reads the texts (the Worker's ranking reads posting lists instead).
    const reader = openFileIndex(sample.result.dir, { shardReads: 'whole' });
    const catalog = await reader.scope(['QVLT']);
    const r = await retrieve(reader, catalog, lexicalQuery('Quillvale cost of sales and gross margin in fiscal 2023'), [], EFFORT_PLANS.medium);
    const weights = new Map(r.queryTerms.map((t) => [t, 1]));
    const shards = await shardsOfHits(reader, r.hits);
    const chains = buildChains(r.hits, EFFORT_PLANS.medium, weights, textEntryTerms(tokenize), shards);
    expect(chains.length).toBeGreaterThan(0);
    const p = RANKING.relevance;
    for (const c of chains) {
      const e = c.explain!;
      const raw = 10 * (p.termCoverage * (p.bestEntry * e.relevance.bestEntry + p.wholeChain * e.relevance.wholeChain) + p.cosine * e.relevance.cosine) + e.relevance.metricRowBonus;
      expect(c.relevance).toBe(Math.max(0, Math.min(10, Math.round(raw))));
      expect(c.score).toBe(e.score.total);
      expect(e.score.anchor + e.score.mates + e.score.graphBonus + e.score.namedRowBonus).toBeCloseTo(c.score, 12);
    }
  });

  it('runQuery traces the explain of every chain it returns, in evidence order', async () => {
    const { ResearchRequest } = await import('../../src/schema/request');
    const req = ResearchRequest.parse({ query: 'Quillvale cost of sales in fiscal 2023', mode: 'research' });
    const { body, trace } = await runQuery(openFileIndex(sample.result.dir), { ...req, normalizedQuery: req.query });
    const scores = [...(body.evidence ?? '').matchAll(/<evidence_chain relevance_score="(\d+)"/g)].map((m) => Number(m[1]));
    expect(trace.explain?.length).toBe(scores.length);
    expect(trace.explain!.every((e) => e !== null)).toBe(true);
    expect(trace.explain!.map((e) => e!.relevance.score)).toEqual(scores);
  });
});
