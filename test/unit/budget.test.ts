import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens, selectWithinBudget } from '../../src/evidence/budget';
import type { Chain } from '../../src/evidence/model';

const chainArb = fc.record({
  relevance: fc.integer({ min: 0, max: 10 }),
  score: fc.double({ min: 0, max: 1, noNaN: true }),
  entries: fc.array(
    fc.record({ consensus: fc.string({ minLength: 1, maxLength: 400 }), sources: fc.constant([] as never[]), confidence: fc.constant('Medium' as const) }),
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
    const chains = [{ relevance: 5, score: 1, entries: [{ consensus: 'a', sources: [], confidence: 'High' as const }] }];
    expect(selectWithinBudget(chains, render, null).chains).toHaveLength(1);
  });

  it('fills the budget with a later, smaller chain when an earlier one does not fit', () => {
    const big: Chain = { relevance: 9, score: 1, entries: [{ consensus: 'b'.repeat(2000), sources: [], confidence: 'High' }] };
    const small: Chain = { relevance: 8, score: 0.5, entries: [{ consensus: 's', sources: [], confidence: 'High' }] };
    const sel = selectWithinBudget([big, small], render, 100);
    expect(sel.chains).toEqual([small]);
    expect(sel.estimatedTokens).toBe(estimateTokens(render([small])));
  });
});

describe('selectWithinBudget with requirements (agentic, spec 2.4)', () => {
  const chain = (text: string, relevance: number): Chain => ({ relevance, score: 1, entries: [{ consensus: text, sources: [], confidence: 'High' }] });

  it('prefers a chain covering an uncovered requirement over higher-ranked chains of a covered one', () => {
    const a1 = chain('a'.repeat(120), 9);
    const a2 = chain('b'.repeat(120), 8);
    const b1 = chain('c'.repeat(120), 7);
    const reqs = new Map<Chain, string[]>([[a1, ['R1']], [a2, ['R1']], [b1, ['R2']]]);
    const cap = estimateTokens(render([a1, b1]));
    expect(selectWithinBudget([a1, a2, b1], render, cap).chains).toEqual([a1, a2]);
    expect(selectWithinBudget([a1, a2, b1], render, cap, (c) => reqs.get(c)!).chains).toEqual([a1, b1]);
  });

  it('gives a requirement a smaller chain when its best one does not fit', () => {
    const big = chain('a'.repeat(3000), 9);
    const other = chain('b'.repeat(100), 8);
    const small = chain('c'.repeat(100), 7);
    const reqs = new Map<Chain, string[]>([[big, ['R1']], [other, ['R2']], [small, ['R1']]]);
    const sel = selectWithinBudget([big, other, small], render, estimateTokens(render([other, small])), (c) => reqs.get(c)!);
    expect(sel.chains).toEqual([other, small]);
  });
});
