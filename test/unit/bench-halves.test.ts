import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_ANSWER_GOLD } from '../../bench/lib/answer-gold';
import { figuresIn, normalizeFigure, termText } from '../../bench/lib/answer-metrics';
import { PageStore, readPages } from '../../bench/lib/corpus-pages';
import { readDevQuestions, retrieveCalls, summarizeHalves, type HalfOutcome } from '../../bench/lib/halves';
import { SHARED, sharedFilingsAvailable } from '../support/shared-subset';

describe('bench halves: retrieve calls', () => {
  it('counts each executed pass, one more for its preference retrieval, and no skipped fill', () => {
    const passes = [
      { preference: null },
      { preference: { searchedShards: [] } },
      { preference: null, skipped: true as const },
    ];
    expect(retrieveCalls({ passes })).toBe(3);
    expect(retrieveCalls({ passes: [] })).toBe(0);
  });

  it('reads a count the trace keeps itself', () => {
    expect(retrieveCalls({ passes: [{ preference: null }], retrieveCalls: 5 })).toBe(5);
  });
});

describe('bench halves: summary', () => {
  it('tallies the headline per set, half and mode, and the calls per mode', () => {
    const q = (id: string, set: 'financebench' | 'docugami', half: 'tuning' | 'check') => ({
      set,
      id,
      question: '',
      answer: '',
      justification: null,
      goldPages: set === 'docugami' ? [] : ['D#1'],
      company: 'X',
      half,
      types: ['t'],
      answerGold: NO_ANSWER_GOLD,
    });
    const questions = [q('a', 'financebench', 'check'), q('b', 'financebench', 'tuning'), q('c', 'docugami', 'check')];
    const o = (
      id: string,
      mode: HalfOutcome['mode'],
      hit: boolean | null,
      support: boolean,
      calls: number,
    ): HalfOutcome => ({ id, mode, hit, support, key: null, passage: null, retrieveCalls: calls, ms: 1 });
    const outcomes = (['basic', 'research', 'agentic_research'] as const).flatMap((m) => [
      o('a', m, true, false, 1),
      o('b', m, false, true, 3),
      o('c', m, null, true, 2),
    ]);
    const s = summarizeHalves(questions, outcomes);
    const fbCheck = s.headline.find((h) => h.set === 'financebench' && h.half === 'check')!;
    expect(fbCheck.byMode.research).toEqual({ k: 1, n: 1 });
    expect(s.headline.find((h) => h.set === 'financebench' && h.half === 'tuning')!.byMode.basic).toEqual({
      k: 0,
      n: 1,
    });
    // docugami has no page gold: its headline is answer support.
    expect(s.headline.find((h) => h.set === 'docugami' && h.half === 'check')!).toMatchObject({
      score: 'answer support',
      byMode: { agentic_research: { k: 1, n: 1 } },
    });
    expect(s.retrieveCalls.find((r) => r.mode === 'basic')).toMatchObject({ p50: 2, max: 3 });
  });
});

describe.skipIf(!sharedFilingsAvailable())('bench halves: the dev questions on the shared data', () => {
  it('gives every dev question one company in exactly one half of bench/split.json', () => {
    const split = JSON.parse(readFileSync('bench/split.json', 'utf8')) as { tuning: string[]; check: string[] };
    expect(split.tuning.filter((t) => split.check.includes(t))).toEqual([]);
    const questions = readDevQuestions(process.cwd(), SHARED);
    expect(new Set(questions.map((q) => q.set))).toEqual(
      new Set(['financebench', 'dev-2', 'docugami', 'dev-3', 'dev-4', 'dev-5']),
    );
    for (const q of questions) expect(split[q.half], q.id).toContain(q.company);
    // dev-3 and dev-5 were written on tuning companies only, dev-4 on check companies only (their READMEs).
    expect(new Set(questions.filter((q) => q.set === 'dev-3').map((q) => q.half))).toEqual(new Set(['tuning']));
    expect(new Set(questions.filter((q) => q.set === 'dev-5').map((q) => q.half))).toEqual(new Set(['tuning']));
    expect(new Set(questions.filter((q) => q.set === 'dev-4').map((q) => q.half))).toEqual(new Set(['check']));
    // Both halves hold questions of every set (the split is by company, about half each).
    for (const set of ['financebench', 'dev-2', 'docugami']) {
      const inSet = questions.filter((q) => q.set === set);
      const check = inSet.filter((q) => q.half === 'check').length;
      expect(check / inSet.length, set).toBeGreaterThan(0.3);
      expect(check / inSet.length, set).toBeLessThan(0.7);
    }
  });
});

describe.skipIf(!sharedFilingsAvailable())('bench dev-3 to dev-5: gold passages located in the corpus pages', () => {
  it('reads each span from its page, and the span holds every key term and figure', async () => {
    const pages = new PageStore(await readPages(`${SHARED}/corpus/filings/pages.jsonl.gz`));
    const written = readDevQuestions(process.cwd(), SHARED, pages).filter(
      (q) => q.set === 'dev-3' || q.set === 'dev-4' || q.set === 'dev-5',
    );
    expect(written.filter((q) => q.set === 'dev-3').length).toBe(45);
    expect(written.filter((q) => q.set === 'dev-4').length).toBe(45);
    expect(written.filter((q) => q.set === 'dev-5').length).toBe(50);
    for (const q of written) {
      const passages = q.answerGold.passages.map((p) => p.text);
      // A span is the answering sentences or rows: a one-line row is the shortest ("Annual tax rate 16.1 % 21.8 %").
      expect(
        passages.every((t) => t.trim().length >= 20),
        q.id,
      ).toBe(true);
      const text = termText(passages.join('\n'));
      for (const term of q.answerGold.key?.terms ?? []) expect(text, q.id).toContain(termText(term));
      const figures = new Set(passages.flatMap((t) => [...figuresIn(t)]));
      for (const f of q.answerGold.key?.figures ?? [])
        expect(figures.has(normalizeFigure(f)), `${q.id} ${f}`).toBe(true);
    }
  });
});
