// Every cue vocabulary entry (src/question/cues.ts) comes with an example written for the project; each example must
// exercise its entry, so no entry stands without a question of the kind it is for.
import { describe, expect, it } from 'vitest';
import {
  ACROSS_PERIODS,
  ACROSS_QUARTERS,
  CAUSAL,
  COMPARISON,
  cuePattern,
  FORWARD_LOOKING,
  NOT_TICKERS,
  NUMERIC_ASK,
  PHRASING_WORDS,
  type Cue,
} from '../../src/question/cues';
import { tokenize } from '../../index-format/tokenize';

const noDuplicates = (cues: readonly Cue[], split: (c: Cue) => string[]) => {
  const all = cues.flatMap(split);
  expect(all.length).toBe(new Set(all).size);
};

describe('cue vocabularies', () => {
  it('phrasing words: each is a term of its example (as the analyzer reads both)', () => {
    for (const c of PHRASING_WORDS) {
      expect(tokenize(c.cue).length, c.cue).toBeGreaterThan(0); // a stop word would be a no-op entry
      for (const t of tokenize(c.cue)) expect(tokenize(c.example), `${c.cue}: ${c.example}`).toContain(t);
    }
    noDuplicates(PHRASING_WORDS, (c) => tokenize(c.cue));
  });

  it('words that are not tickers: each is written in capitals in its example', () => {
    for (const c of NOT_TICKERS)
      for (const w of c.cue.split(' ')) expect(c.example, w).toMatch(new RegExp(`\\b${w}\\b`));
    noDuplicates(NOT_TICKERS, (c) => c.cue.split(' '));
  });

  it('patterns: each alternative matches its example', () => {
    for (const c of [...ACROSS_QUARTERS, ...ACROSS_PERIODS, ...COMPARISON, ...NUMERIC_ASK, ...CAUSAL])
      expect(c.example, c.cue).toMatch(cuePattern([c]));
    for (const c of FORWARD_LOOKING) expect(c.example, c.cue).toMatch(cuePattern([c], (a) => `\\b(?:${a})\\b`));
  });
});
