import { describe, expect, it } from 'vitest';
import type { DevSet, Half, HalfMode, HalvesSummary } from '../../bench/lib/halves';
import type { AnswerRow } from '../../bench/lib/answers';
import { judgeChange, renderVerdict } from '../../bench/lib/judge';

type Scores = Partial<Record<`${Half} ${DevSet}`, [number, number, number]>>;

/**
 * A halves summary with the given hits (basic, research, agentic) per half and set, 20 questions each, 10 hit by
 * default.
 */
function summary(scores: Scores): HalvesSummary {
  const headline: HalvesSummary['headline'] = [];
  for (const half of ['tuning', 'check'] as const) {
    for (const set of ['financebench', 'dev-2', 'docugami'] as const) {
      const [b, r, a] = scores[`${half} ${set}`] ?? [10, 10, 10];
      const byMode: Record<HalfMode, { k: number; n: number }> = {
        basic: { k: b, n: 20 },
        research: { k: r, n: 20 },
        agentic_research: { k: a, n: 20 },
      };
      headline.push({ set, score: set === 'docugami' ? 'answer support' : 'gold-page hit', half, byMode });
    }
  }
  return { cap: 4000, headline, byType: [], support: [], retrieveCalls: [], inProcessMs: [] };
}

const base = summary({});

describe('bench judge: the keep rule', () => {
  it('keeps a ranking change that gains 3 on the check half in basic and in research', () => {
    const v = judgeChange(base, summary({ 'check financebench': [11, 11, 10], 'check docugami': [12, 12, 10] }));
    expect(v.checkGain).toEqual({ basic: 3, research: 3, agentic_research: 0 });
    expect(v.ranking).toEqual({ keep: true, reasons: [] });
    expect(renderVerdict(v)).toMatch(
      new RegExp(
        String.raw`\| check \| financebench \| 10 -> 11 of 20 \| 10 -> 11 of 20 \| 10 -> 10 of 20 \|[\s\S]*As a r` +
          String.raw`anking change: keep\.`,
      ),
    );
  });

  it('does not keep a gain in research only, a mode that loses, or a check set losing two', () => {
    expect(judgeChange(base, summary({ 'check docugami': [10, 14, 10] })).ranking.reasons).toEqual([
      'check half basic 0, under +3',
    ]);
    const agenticLoses = judgeChange(base, summary({ 'check docugami': [13, 13, 9] }));
    expect(agenticLoses.ranking.reasons).toEqual(['check half agentic_research loses (-1)']);
    const setLoses = judgeChange(base, summary({ 'check docugami': [15, 15, 15], 'check dev-2': [8, 10, 10] }));
    expect(setLoses.ranking.keep).toBe(false);
    expect(setLoses.ranking.reasons).toEqual(['dev-2 (check, basic) loses 2']);
  });

  it('ignores the tuning half for a ranking change but not for an index fix', () => {
    const v = judgeChange(base, summary({ 'check financebench': [13, 13, 13], 'tuning dev-2': [10, 7, 10] }));
    expect(v.ranking.keep).toBe(true);
    expect(v.indexFix).toEqual({ keep: false, reasons: ['dev-2 (tuning, research) loses 3'] });
    expect(judgeChange(base, summary({ 'tuning dev-2': [9, 9, 9] })).indexFix.keep).toBe(true);
  });

  it('lists the check half’s question types that moved', () => {
    const before = summary({});
    const after = summary({ 'check financebench': [11, 11, 10] });
    const byType = (k: number): HalvesSummary['byType'] => [
      {
        set: 'financebench',
        type: 'answer descriptive',
        half: 'check',
        byMode: { basic: { k, n: 4 }, research: { k, n: 4 }, agentic_research: { k: 3, n: 4 } },
      },
      {
        set: 'financebench',
        type: 'answer numeric',
        half: 'check',
        byMode: { basic: { k: 22, n: 27 }, research: { k: 22, n: 27 }, agentic_research: { k: 22, n: 27 } },
      },
    ];
    before.byType = byType(3);
    after.byType = byType(4);
    const v = judgeChange(before, after);
    expect(v.typeDeltas.map((d) => `${d.type} ${d.mode} ${d.before}->${d.after}`)).toEqual([
      'answer descriptive basic 3->4',
      'answer descriptive research 3->4',
      'answer descriptive agentic_research 3->3',
    ]);
    expect(renderVerdict(v)).toContain(
      '| financebench | answer descriptive | 3 -> 4 of 4 | 3 -> 4 of 4 | 3 -> 3 of 4 |',
    );
    expect(renderVerdict(v)).not.toContain('answer numeric');
  });

  it('counts the questions gained and lost when both runs list them', () => {
    // docugami check, basic: q1 and q2 lose the score, q3 gains it; the sum alone says -1.
    const scored = (hits: Record<string, boolean>): HalvesSummary['scored'] =>
      Object.entries(hits).map(([id, headline]) => ({ id, set: 'docugami', half: 'check', mode: 'basic', headline }));
    const before = { ...summary({}), scored: scored({ q1: true, q2: true, q3: false, q4: true }) };
    const after = {
      ...summary({ 'check docugami': [9, 10, 10] }),
      scored: scored({ q1: false, q2: false, q3: true, q4: true }),
    };
    const v = judgeChange(before, after);
    const d = v.deltas.find((x) => x.set === 'docugami' && x.half === 'check' && x.mode === 'basic');
    expect(d?.churn).toEqual({ gained: 1, lost: 2 });
    expect(v.deltas.find((x) => x.set === 'dev-2' && x.half === 'check' && x.mode === 'basic')?.churn).toEqual({
      gained: 0,
      lost: 0,
    });
    expect(renderVerdict(v)).toContain('| check | docugami | 10 -> 9 of 20 (+1 -2) | 10 -> 10 of 20 |');
    // A run saved before the lists were kept: sums only.
    expect(judgeChange(summary({}), after).deltas.every((x) => x.churn === undefined)).toBe(true);
  });

  it('refuses runs over different questions', () => {
    const other = summary({});
    other.headline[0]!.byMode.basic.n = 19;
    expect(() => judgeChange(base, other)).toThrow(/20 questions before, 19 after/);
  });

  it('judges the answer key on the check side: dev check half and outside-check summed, no set losing two', () => {
    const row = (set: AnswerRow['set'], half: AnswerRow['half'], metric: AnswerRow['metric'], k: [number, number]) => ({
      set,
      half,
      type: null,
      metric,
      byMode: { basic: { k: k[0], n: 30 }, research: { k: k[1], n: 30 }, agentic_research: { k: 10, n: 30 } },
    });
    const withAnswers = (outside: [number, number], fb: [number, number], tuning: [number, number]) => ({
      ...summary({}),
      answers: [
        row('outside-check', 'check', 'answer key', outside),
        row('outside-check', 'check', 'gold-page hit', [20, 20]),
        row('financebench', 'check', 'answer key', fb),
        row('financebench', 'tuning', 'answer key', tuning),
      ],
    });
    const before = withAnswers([10, 10], [10, 10], [10, 10]);
    const gain = judgeChange(before, withAnswers([12, 12], [11, 11], [5, 5])).answers!;
    expect(gain.keyGain).toEqual({ basic: 3, research: 3, agentic_research: 0 });
    expect(gain.rule).toEqual({ keep: true, reasons: [] });
    const loses = judgeChange(before, withAnswers([15, 14], [8, 10], [10, 10])).answers!;
    expect(loses.rule.reasons).toEqual(['financebench (check, basic) answer key loses 2']);
    expect(renderVerdict(judgeChange(before, withAnswers([12, 12], [11, 11], [5, 5])))).toMatch(
      new RegExp(
        String.raw`\| check \| outside-check \| all \| answer key \| 10 -> 12 of 30 \| 10 -> 12 of 30 ` +
          String.raw`\| 10 -> 10 of 30 \|` +
          String.raw`[\s\S]*By the answer rule: keep\.`,
      ),
    );
    // A saved run from before the answer metrics is judged by the headline alone.
    expect(judgeChange(summary({}), withAnswers([12, 12], [11, 11], [5, 5])).answers).toBeNull();
  });
});
