import { describe, expect, it } from 'vitest';
import {
  financeBenchGold,
  outsideCheckGold,
  printedFigures,
  printedKeyGold,
  printedTerms,
} from '../../bench/lib/answer-gold';
import {
  answerKey,
  answeringPassage,
  contentWords,
  figuresIn,
  filingKey,
  normalizeFigure,
  passageCoverage,
} from '../../bench/lib/answer-metrics';
import { addBaseline, summarizeAnswers } from '../../bench/lib/answers';
import { HALF_MODES, type DevQuestion, type HalfOutcome } from '../../bench/lib/halves';

describe('answer metrics: numbers', () => {
  it('compares numbers without $, commas, parentheses, %, sign and trailing decimal zeros', () => {
    expect(normalizeFigure('$1,577.00')).toBe('1577');
    expect(normalizeFigure('(412)')).toBe('412');
    expect(normalizeFigure('65.40%')).toBe('65.4');
    expect(normalizeFigure('-0.50')).toBe('0.5');
    // Zeros before the decimal point are the number's own.
    expect(normalizeFigure('1500')).toBe('1500');
    expect(normalizeFigure('2.0')).toBe('2');
  });

  it('reads every number of a text whole, never the tail of another', () => {
    const f = figuresIn('In FY2019 revenue was $1,577.5 million (2018: 1,234); margin 12.30%.');
    expect([...f].sort()).toEqual(['12.3', '1234', '1577.5', '2018', '2019']);
    expect(f.has('577')).toBe(false);
    expect(f.has('5')).toBe(false);
  });
});

describe('answer metrics: answer key', () => {
  it('needs every key figure as a number and every key term, as printed', () => {
    const text = 'Net sales were $22,000 million, up 5.0%, driven by the “Pro” line  and cloud services.';
    expect(answerKey({ figures: ['22000', '5'], terms: [] }, text)).toBe(true);
    expect(answerKey({ figures: ['22000'], terms: ['"pro" line and cloud'] }, text)).toBe(true);
    expect(answerKey({ figures: ['22000', '2200'], terms: [] }, text)).toBe(false);
    expect(answerKey({ figures: ['22000'], terms: ['hardware'] }, text)).toBe(false);
    // 220001 contains 22000 but is another number.
    expect(answerKey({ figures: ['22000'], terms: [] }, 'orders of 220001 units')).toBe(false);
  });

  it('leaves out a question without a key', () => {
    expect(answerKey({ figures: [], terms: [] }, 'anything')).toBeNull();
  });
});

describe('answer metrics: answering passage', () => {
  const gold = { filing: 'X|2022|10-K|', text: 'We employed approximately 22,000 people worldwide at year end.' };

  it('counts content words: 3+ letters or numbers, stop words out, numbers normalized', () => {
    expect([...contentWords(gold.text)].sort()).toEqual([
      '22000',
      'approximately',
      'employed',
      'end',
      'people',
      'worldwide',
      'year',
    ]);
  });

  it('covers a passage at 60% of its content words, from pieces citing its filing only', () => {
    // 5 of the 7 content words, on the gold filing: 0.71.
    const on = { filings: ['X|2022|10-K|'], text: 'About 22,000 people were employed worldwide.' };
    expect(passageCoverage(gold, [on])).toBeCloseTo(4 / 7);
    expect(answeringPassage([gold], [on])).toBe(false);
    const more = { filings: ['X|2022|10-K|', 'X|2021|10-K|'], text: 'at year end' };
    expect(passageCoverage(gold, [on, more])).toBeCloseTo(6 / 7);
    expect(answeringPassage([gold], [on, more])).toBe(true);
    // The same words from another filing do not count.
    const other = { filings: ['X|2021|10-K|'], text: gold.text };
    expect(answeringPassage([gold], [other])).toBe(false);
    // Any one gold entry is enough; no gold passage is no score.
    expect(answeringPassage([{ filing: 'Y|2022|10-K|', text: 'other words entirely' }, gold], [other, on, more])).toBe(
      true,
    );
    expect(answeringPassage([], [on])).toBeNull();
  });

  it('takes a filing as ticker, fiscal year, form and a 10-Q quarter', () => {
    const doc = { ticker: 'X', fiscal_year: 2023, form_type: '10-Q', fiscal_period: 'Q2' };
    expect(filingKey(doc)).toBe('X|2023|10-Q|Q2');
    expect(filingKey({ ...doc, fiscal_period: 'Q3' })).not.toBe(filingKey(doc));
    expect(filingKey({ ...doc, form_type: '10-K', fiscal_period: 'FY' })).toBe('X|2023|10-K|');
  });
});

describe('answer gold of the dev sets', () => {
  it('keeps the answer figures the gold prints: not computed ones, years or small integers', () => {
    expect(printedFigures('$1577.00', 'Purchases of PP&E (1,577) (1,373)')).toEqual(['1577']);
    expect(printedFigures('24.3%', 'Revenue 1,200 Cost 908')).toEqual([]);
    expect(printedFigures('3 segments in 2022, 1,200 stores', '3 segments ... 2022 ... 1,200 stores')).toEqual([
      '1200',
    ]);
  });

  it('keeps the listed phrases of an answer that the gold prints', () => {
    const page = 'Our segments are North America, Europe, Middle East & Africa (EMEA) and Greater China.';
    expect(printedTerms('North America; Europe, Middle East & Africa; Greater China; Mars', page)).toEqual([
      'north america',
      'europe, middle east & africa',
      'greater china',
    ]);
    expect(printedTerms('North America', page)).toEqual([]);
    expect(printedKeyGold('North America; Greater China', page, false).key).toBeNull();
  });

  it('takes a FinanceBench evidence_text as a passage only when it is not its whole page', () => {
    const filingOf = new Map([['D', 'D|2020|10-K|']]);
    const page = `${'Other text on the page. '.repeat(20)}Capital expenditures were 1,577.`;
    const row = (text: string) => ({ answer: '$1577', evidence: [{ doc_id: 'D', page: 3, evidence_text: text }] });
    const short = financeBenchGold(row('Capital expenditures were 1,577.'), filingOf, () => page);
    expect(short.passages).toEqual([{ filing: 'D|2020|10-K|', text: 'Capital expenditures were 1,577.' }]);
    expect(short.key).toEqual({ figures: ['1577'], terms: [] });
    expect(financeBenchGold(row(page), filingOf, () => page).passages).toEqual([]);
  });

  it('reads outside-check as written', () => {
    const g = outsideCheckGold(
      { evidence: [{ doc_id: 'D', evidence_text: 't' }], key_figures: ['12.5'], key_terms: ['cloud'] },
      new Map([['D', 'K']]),
    );
    expect(g).toEqual({ key: { figures: ['12.5'], terms: ['cloud'] }, passages: [{ filing: 'K', text: 't' }] });
    expect(outsideCheckGold({ evidence: [] }, new Map()).key).toBeNull();
  });
});

describe('answer metrics: tallies', () => {
  const q = (id: string, half: 'check' | 'tuning', type: string): DevQuestion => ({
    set: 'financebench',
    id,
    question: '',
    answer: '',
    justification: null,
    goldPages: [],
    company: 'X',
    half,
    types: [type],
    answerGold: { key: null, passages: [] },
  });
  const o = (id: string, key: boolean | null, passage: boolean | null): HalfOutcome[] =>
    HALF_MODES.map((mode) => ({ id, mode, hit: null, support: false, key, passage, retrieveCalls: 1, ms: 1 }));

  it('counts only questions with the gold, per half and type, and the baseline on the same questions', () => {
    const questions = [q('a', 'check', 't1'), q('b', 'check', 't2'), q('c', 'tuning', 't1')];
    const rows = summarizeAnswers(
      questions,
      [...o('a', true, null), ...o('b', false, true), ...o('c', true, null)],
      HALF_MODES,
    );
    const key = rows.find((r) => r.half === 'check' && r.type === null && r.metric === 'answer key')!;
    expect(key.byMode.research).toEqual({ k: 1, n: 2 });
    const passage = rows.find((r) => r.half === 'check' && r.type === null && r.metric === 'answering passage')!;
    expect(passage.byMode.basic).toEqual({ k: 1, n: 1 });
    // No passage gold in the tuning half: no row.
    expect(rows.some((r) => r.half === 'tuning' && r.metric === 'answering passage')).toBe(false);
    const withBase = addBaseline(rows, questions, [
      { id: 'a', key: false, passage: null, hit: null },
      { id: 'b', key: true, passage: false, hit: null },
      { id: 'c', key: true, passage: null, hit: null },
    ]);
    expect(withBase.find((r) => r.half === 'check' && r.type === 't2' && r.metric === 'answer key')!.baseline).toEqual({
      k: 1,
      n: 1,
    });
    expect(withBase.find((r) => r.half === 'tuning' && r.type === null)!.baseline).toEqual({ k: 1, n: 1 });
  });
});
