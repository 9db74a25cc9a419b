import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateTokens,
  selectWithinBudget,
  selectWithinBudgetLazily,
  type LazyCandidate,
} from '../../src/evidence/budget';
import type { Chain } from '../../src/evidence/model';

const chainArb = fc.record({
  relevance: fc.integer({ min: 0, max: 10 }),
  score: fc.double({ min: 0, max: 1, noNaN: true }),
  entries: fc.array(
    fc.record({
      consensus: fc.string({ minLength: 1, maxLength: 400 }),
      sources: fc.constant([] as never[]),
      confidence: fc.constant('Medium' as const),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

// A registry that grows with the selection, like the real one: the estimate must include it.
const render = (chains: readonly Chain[]) =>
  `<source_registry>${'x'.repeat(chains.length * 37)}</source_registry>` +
  chains.map((c) => `<evidence_chain>${c.entries.map((e) => e.consensus).join('|')}</evidence_chain>`).join('');

describe('selectWithinBudget', () => {
  it('never exceeds the cap and returns only complete chains, in rerank order', () => {
    fc.assert(
      fc.property(fc.array(chainArb, { maxLength: 12 }), fc.integer({ min: 1, max: 3000 }), (chains, cap) => {
        const sel = selectWithinBudget(chains as unknown as Chain[], render, cap);
        expect(sel.estimatedTokens).toBeLessThanOrEqual(cap);
        if (sel.evidence) expect(sel.evidence).toBe(render(sel.chains));
        else expect(sel.chains).toEqual([]);
        const idx = sel.chains.map((c) => chains.indexOf(c as never));
        expect(idx).toEqual([...idx].sort((a, b) => a - b));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps everything when no cap is given', () => {
    const chains = [
      { relevance: 5, score: 1, entries: [{ consensus: 'a', sources: [], confidence: 'High' as const }] },
    ];
    expect(selectWithinBudget(chains, render, null).chains).toHaveLength(1);
  });

  it('fills the budget with a later, smaller chain when an earlier one does not fit', () => {
    const big: Chain = {
      relevance: 9,
      score: 1,
      entries: [{ consensus: 'b'.repeat(2000), sources: [], confidence: 'High' }],
    };
    const small: Chain = { relevance: 8, score: 0.5, entries: [{ consensus: 's', sources: [], confidence: 'High' }] };
    const sel = selectWithinBudget([big, small], render, 100);
    expect(sel.chains).toEqual([small]);
    expect(sel.estimatedTokens).toBe(estimateTokens(render([small])));
  });
});

describe('selectWithinBudget with requirements (agentic, spec 2.4)', () => {
  const chain = (text: string, relevance: number): Chain => ({
    relevance,
    score: 1,
    entries: [{ consensus: text, sources: [], confidence: 'High' }],
  });

  it('prefers a chain covering an uncovered requirement over higher-ranked chains of a covered one', () => {
    const a1 = chain('a'.repeat(120), 9);
    const a2 = chain('b'.repeat(120), 8);
    const b1 = chain('c'.repeat(120), 7);
    const reqs = new Map<Chain, string[]>([
      [a1, ['R1']],
      [a2, ['R1']],
      [b1, ['R2']],
    ]);
    const cap = estimateTokens(render([a1, b1]));
    expect(selectWithinBudget([a1, a2, b1], render, cap).chains).toEqual([a1, a2]);
    expect(selectWithinBudget([a1, a2, b1], render, cap, (c) => reqs.get(c)!).chains).toEqual([a1, b1]);
  });

  it('gives a requirement a smaller chain when its best one does not fit', () => {
    const big = chain('a'.repeat(3000), 9);
    const other = chain('b'.repeat(100), 8);
    const small = chain('c'.repeat(100), 7);
    const reqs = new Map<Chain, string[]>([
      [big, ['R1']],
      [other, ['R2']],
      [small, ['R1']],
    ]);
    const sel = selectWithinBudget(
      [big, other, small],
      render,
      estimateTokens(render([other, small])),
      (c) => reqs.get(c)!,
    );
    expect(sel.chains).toEqual([other, small]);
  });
});

describe('selectWithinBudgetLazily (chains read on demand)', () => {
  // A chain's skeleton: its entries with no text, what it renders to at least (src/evidence/chains.ts skeletonChain).
  const skeleton = (c: Chain): Chain => ({ ...c, entries: c.entries.map((e) => ({ ...e, consensus: '' })) });
  const lazy = (chains: readonly Chain[]) => {
    const read = new Set<Chain>();
    const candidates = chains.map(
      (c): LazyCandidate => ({
        chain: () => (read.has(c) ? c : undefined),
        skeleton: skeleton(c),
        textTokens: estimateTokens(c.entries.map((e) => e.consensus).join('')),
      }),
    );
    const reads: number[] = [];
    const readBatch = async (batch: readonly LazyCandidate[]) => {
      reads.push(batch.length);
      for (const b of batch) read.add(chains[candidates.indexOf(b)]!);
    };
    return { candidates, readBatch, reads, read };
  };

  it('selects exactly what selectWithinBudget selects over every chain read, reading no more chains', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(chainArb, { maxLength: 12 }),
        fc.integer({ min: 1, max: 3000 }),
        async (chains, cap) => {
          const all = chains as unknown as Chain[];
          const eager = selectWithinBudget(all, render, cap);
          const { candidates, readBatch, read } = lazy(all);
          const sel = await selectWithinBudgetLazily(candidates, readBatch, render, cap);
          expect(sel.chains).toEqual(eager.chains);
          expect(sel.evidence).toBe(eager.evidence);
          expect(sel.estimatedTokens).toBe(eager.estimatedTokens);
          expect(read.size).toBeLessThanOrEqual(all.length);
          for (const c of sel.chains) expect(read.has(c)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves unread a chain whose skeleton alone does not fit, and reads the best chains in one batch', async () => {
    const chain = (text: string, relevance: number): Chain => ({
      relevance,
      score: 1,
      entries: [{ consensus: text, sources: [], confidence: 'High' }],
    });
    const a = chain('a'.repeat(200), 9);
    const b = chain('b'.repeat(200), 8);
    // Its skeleton alone (a thousand entries, each rendered as a separator) is over the cap.
    const tooBig: Chain = {
      relevance: 7,
      score: 1,
      entries: Array.from({ length: 1000 }, () => ({ consensus: 'x', sources: [], confidence: 'High' as const })),
    };
    const cap = estimateTokens(render([a, b])) + 5;
    const { candidates, readBatch, reads, read } = lazy([a, b, tooBig]);
    const sel = await selectWithinBudgetLazily(candidates, readBatch, render, cap);
    expect(sel.chains).toEqual([a, b]);
    expect(read.has(tooBig)).toBe(false);
    expect(reads[0]).toBe(2);
  });
});
