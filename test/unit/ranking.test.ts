// The ranking module (src/search/ranking.ts): its parameters are the ones docs/PARAMETERS.md documents, and a chain's
// explain adds up to the score it ranked with, on one scale.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/core/run-query';
import { chainOrder, fusedScore, normaliseLeg, RANKING } from '../../src/search/ranking';
import { buildChains, textEntryTerms } from '../../src/evidence/chains';
import { EFFORT_PLANS } from '../../src/search/effort';
import { lexicalQuery } from '../../src/query/terms';
import { retrieve, shardsOfHits } from '../../src/search/retrieve';
import { tokenize } from '../../src/text/tokenize';
import { openFileIndex } from '../support/file-index';
import { buildSample } from '../support/sample-build';

/** Every numeric field of RANKING, as [dotted path, value]. */
function leaves(o: object, prefix = 'RANKING'): [string, number][] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'number' ? [[`${prefix}.${k}`, v] as [string, number]] : leaves(v as object, `${prefix}.${k}`),
  );
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

  it('fuses the normalised legs into one 0-1 score, the lexical leg weighing more', () => {
    expect(normaliseLeg(6, 12)).toBe(0.5);
    expect(normaliseLeg(0, 0)).toBe(0);
    expect(fusedScore(1, 1)).toBeCloseTo(1, 12);
    expect(fusedScore(0, 0)).toBe(0);
    expect(fusedScore(1, 0)).toBeGreaterThan(fusedScore(0, 1));
    expect(fusedScore(0.5, 0.5)).toBeCloseTo(0.5, 12);
  });

  it('orders chains within a relevance_score in under one point: named row, then graph, then retrieval', () => {
    const s = chainOrder(0.6, [0.5, 0.2], true, false);
    expect(s.retrieval).toBeCloseTo(RANKING.order.retrieval * (0.6 + RANKING.order.mateShare * 0.7), 12);
    expect(s.retrieval + s.graph + s.namedRow).toBeCloseTo(s.total, 12);
    expect(chainOrder(1, [1, 1, 1, 1], true, true).total).toBeLessThan(1);
    expect(chainOrder(0, [], false, true).total).toBeGreaterThan(chainOrder(1, [1, 1], true, false).total);
    expect(chainOrder(0, [], true, false).total).toBeGreaterThan(chainOrder(1, [1, 1], false, false).total);
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
    const r = await retrieve(
      reader,
      catalog,
      lexicalQuery('Quillvale cost of sales and gross margin in fiscal 2023'),
      [],
      EFFORT_PLANS.medium,
    );
    const weights = new Map(r.queryTerms.map((t) => [t, 1]));
    const shards = await shardsOfHits(reader, r.hits);
    const chains = buildChains(r.hits, EFFORT_PLANS.medium, weights, textEntryTerms(tokenize), shards);
    expect(chains.length).toBeGreaterThan(0);
    const p = RANKING.relevance;
    for (const c of chains) {
      const e = c.explain!;
      const raw =
        10 *
          (p.termCoverage * (p.bestEntry * e.relevance.bestEntry + p.wholeChain * e.relevance.wholeChain) +
            p.cosine * e.relevance.cosine) +
        e.relevance.metricRowBonus;
      expect(c.relevance).toBe(Math.max(0, Math.min(10, Math.round(raw))));
      expect(e.relevance.score).toBe(c.relevance);
      expect(e.order.retrieval + e.order.graph + e.order.namedRow).toBeCloseTo(e.order.total, 12);
      expect(c.score).toBeCloseTo(c.relevance + e.order.total + e.preference, 12);
      expect(e.score).toBe(c.score);
    }
  });

  it('runQuery traces the explain of every chain it returns, in evidence order', async () => {
    const { ResearchRequest } = await import('../../src/schema/request');
    const req = ResearchRequest.parse({ query: 'Quillvale cost of sales in fiscal 2023', mode: 'research' });
    const { body, trace } = await runQuery(openFileIndex(sample.result.dir), { ...req, normalizedQuery: req.query });
    const scores = [...(body.evidence ?? '').matchAll(/<evidence_chain relevance_score="(\d+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(trace.explain?.length).toBe(scores.length);
    expect(trace.explain!.every((e) => e !== null)).toBe(true);
    expect(trace.explain!.map((e) => e!.relevance.score)).toEqual(scores);
  });

  it('orders a research response by the explained score, and each score is the sum of its parts', async () => {
    const { ResearchRequest } = await import('../../src/schema/request');
    const reader = openFileIndex(sample.result.dir);
    for (const query of [
      'Quillvale cost of sales in fiscal 2023',
      'From the balance sheet, how much cash did Quillvale hold at the end of fiscal 2023?',
      'What risks did Quillvale describe for its supply chain?',
    ]) {
      const req = ResearchRequest.parse({ query, mode: 'research' });
      const { trace } = await runQuery(reader, { ...req, normalizedQuery: req.query });
      const explained = trace.explain!.map((e) => e!);
      expect(explained.length, query).toBeGreaterThan(1);
      for (const e of explained)
        expect(e.score, query).toBeCloseTo(e.relevance.score + e.order.total + e.preference, 12);
      for (let i = 1; i < explained.length; i++)
        expect(explained[i]!.score, query).toBeLessThanOrEqual(explained[i - 1]!.score + 1e-9);
    }
  });
});
