/**
 * The keep rule of docs/DECISIONS.md "Evaluation split", applied to two runs of the halves (before and after a
 * change), so that a change is judged by the rule and not by eye:
 *   ranking rule  the check half gains at least KEEP_GAIN questions summed over FinanceBench dev, dev-2,
 *                 docugami and dev-4, in basic and in research alike; no mode loses on the check half; no set
 *                 of the check half loses more than MAX_SET_LOSS in any mode.
 *   index fix     (segmentation, extraction, coverage; judged with the embedding model held fixed) no set of either
 *                 half loses more than MAX_SET_LOSS in any mode.
 * Scores are the halves' headline: gold-page hit (FinanceBench, dev-2 to dev-5) or answer support (docugami).
 *   answer rule   the answer key (bench/lib/answer-metrics.ts) gains at least KEEP_GAIN questions on the check side
 *                 (the dev sets' check half and outside-check), summed over the sets, in basic and in research; no
 *                 set of the check side loses more than MAX_SET_LOSS of its answer key or gold-page hit in any mode.
 */
import type { AnswerMetric, AnswerRow } from './answers';
import { HALF_MODES, type AnswerSet, type DevSet, type Half, type HalfMode, type HalvesSummary } from './halves';

export const KEEP_GAIN = 3;
export const MAX_SET_LOSS = 1;
/** The modes the ranking rule asks a gain of: the default mode and research. */
const GAINING_MODES: readonly HalfMode[] = ['basic', 'research'];

export interface SetDelta {
  set: DevSet;
  half: Half;
  mode: HalfMode;
  before: number;
  after: number;
  n: number;
  /**
   * The questions that gained and that lost the score, when both runs list them (HalvesSummary.scored): a sum of 0
   * may be two gained and two lost, and a set that churns by several questions on every change is noisier than its
   * sum says.
   */
  churn?: { gained: number; lost: number };
}

export interface Verdict {
  deltas: SetDelta[];
  /** Check half per set and question type, where any mode moved (the issue's "descriptive gain, numeric lose none"). */
  typeDeltas: (SetDelta & { type: string })[];
  /** Check half, summed over the sets, per mode. */
  checkGain: Record<HalfMode, number>;
  ranking: { keep: boolean; reasons: string[] };
  indexFix: { keep: boolean; reasons: string[] };
  /** Answer metrics before -> after (whole halves, and the check side's types that moved); null without them. */
  answers: {
    deltas: AnswerDelta[];
    /** The answer key on the check side, summed over the sets, per mode. */
    keyGain: Record<HalfMode, number>;
    rule: { keep: boolean; reasons: string[] };
  } | null;
}

export interface AnswerDelta {
  set: AnswerSet;
  half: Half;
  type: string | null;
  metric: AnswerMetric;
  mode: HalfMode;
  before: number;
  after: number;
  n: number;
}

const rowKey = (r: AnswerRow) => `${r.set}|${r.half}|${r.type}|${r.metric}`;

function judgeAnswers(before: readonly AnswerRow[], after: readonly AnswerRow[], headline: readonly SetDelta[]) {
  const afterOf = new Map(after.map((r) => [rowKey(r), r]));
  const deltas: AnswerDelta[] = [];
  for (const b of before) {
    const a = afterOf.get(rowKey(b));
    if (!a) continue;
    const moved = HALF_MODES.some((m) => a.byMode[m].k !== b.byMode[m].k);
    if (b.type !== null && (b.half !== 'check' || !moved)) continue;
    for (const mode of HALF_MODES)
      deltas.push({ ...b, mode, before: b.byMode[mode].k, after: a.byMode[mode].k, n: b.byMode[mode].n });
  }
  const checkSide = deltas.filter((d) => d.half === 'check' && d.type === null);
  const keyGain = Object.fromEntries(
    HALF_MODES.map((m) => [
      m,
      checkSide.filter((d) => d.metric === 'answer key' && d.mode === m).reduce((s, d) => s + d.after - d.before, 0),
    ]),
  ) as Record<HalfMode, number>;
  const reasons: string[] = [];
  for (const m of GAINING_MODES)
    if (keyGain[m] < KEEP_GAIN)
      reasons.push(`answer key on the check side ${m} ${signed(keyGain[m])}, under +${KEEP_GAIN}`);
  const hitLosses = headline.filter((d) => d.half === 'check' && d.set !== 'docugami');
  for (const d of [...checkSide.filter((x) => x.metric !== 'answering passage'), ...hitLosses])
    if (d.before - d.after > MAX_SET_LOSS)
      reasons.push(
        `${d.set} (check, ${d.mode}) ${'metric' in d ? d.metric : 'gold-page hit'} loses ${d.before - d.after}`,
      );
  return { deltas, keyGain, rule: { keep: reasons.length === 0, reasons } };
}

/** Per set, half and mode, the questions scored before and not after (lost) and the reverse (gained). */
function churnOf(before: HalvesSummary, after: HalvesSummary): Map<string, { gained: number; lost: number }> | null {
  if (!before.scored || !after.scored) return null;
  const afterOf = new Map(after.scored.map((s) => [`${s.mode}|${s.id}`, s.headline]));
  const out = new Map<string, { gained: number; lost: number }>();
  for (const b of before.scored) {
    const a = afterOf.get(`${b.mode}|${b.id}`);
    if (a === undefined || a === b.headline) continue;
    const key = `${b.set}|${b.half}|${b.mode}`;
    const c = out.get(key) ?? { gained: 0, lost: 0 };
    if (a) c.gained++;
    else c.lost++;
    out.set(key, c);
  }
  return out;
}

export function judgeChange(before: HalvesSummary, after: HalvesSummary): Verdict {
  const deltas: SetDelta[] = [];
  const churn = churnOf(before, after);
  // A half with no question (a run saved before empty halves were left out) has nothing to judge.
  for (const b of before.headline.filter((h) => HALF_MODES.some((m) => h.byMode[m].n > 0))) {
    const a = after.headline.find((h) => h.set === b.set && h.half === b.half);
    if (!a) throw new Error(`the after run has no ${b.set} ${b.half} half`);
    for (const mode of HALF_MODES) {
      if (a.byMode[mode].n !== b.byMode[mode].n)
        throw new Error(`${b.set} ${b.half} ${mode}: ${b.byMode[mode].n} questions before, ${a.byMode[mode].n} after`);
      deltas.push({
        set: b.set,
        half: b.half,
        mode,
        before: b.byMode[mode].k,
        after: a.byMode[mode].k,
        n: b.byMode[mode].n,
        ...(churn ? { churn: churn.get(`${b.set}|${b.half}|${mode}`) ?? { gained: 0, lost: 0 } } : {}),
      });
    }
  }
  const typeDeltas: Verdict['typeDeltas'] = [];
  for (const b of before.byType.filter((t) => t.half === 'check')) {
    const a = after.byType.find((t) => t.set === b.set && t.type === b.type && t.half === 'check');
    if (!a || HALF_MODES.every((m) => a.byMode[m].k === b.byMode[m].k)) continue;
    for (const mode of HALF_MODES)
      typeDeltas.push({
        set: b.set,
        type: b.type,
        half: 'check',
        mode,
        before: b.byMode[mode].k,
        after: a.byMode[mode].k,
        n: b.byMode[mode].n,
      });
  }
  const checkGain = Object.fromEntries(
    HALF_MODES.map((m) => [
      m,
      deltas.filter((d) => d.half === 'check' && d.mode === m).reduce((s, d) => s + d.after - d.before, 0),
    ]),
  ) as Record<HalfMode, number>;
  const losses = (half: Half) =>
    deltas
      .filter((d) => d.half === half && d.before - d.after > MAX_SET_LOSS)
      .map((d) => `${d.set} (${d.half}, ${d.mode}) loses ${d.before - d.after}`);

  const ranking: string[] = [];
  for (const m of GAINING_MODES)
    if (checkGain[m] < KEEP_GAIN) ranking.push(`check half ${m} ${signed(checkGain[m])}, under +${KEEP_GAIN}`);
  for (const m of HALF_MODES) if (checkGain[m] < 0) ranking.push(`check half ${m} loses (${signed(checkGain[m])})`);
  ranking.push(...losses('check'));
  const indexFix = [...losses('check'), ...losses('tuning')];
  return {
    deltas,
    typeDeltas,
    checkGain,
    ranking: { keep: ranking.length === 0, reasons: ranking },
    indexFix: { keep: indexFix.length === 0, reasons: indexFix },
    answers: before.answers && after.answers ? judgeAnswers(before.answers, after.answers, deltas) : null,
  };
}

const signed = (x: number) => (x > 0 ? `+${x}` : `${x}`);

/**
 * The verdict as markdown: each set's score before -> after per half and mode (with the questions gained and lost,
 * "(+2 -3)", when both runs list them), the check half's sums, both rules.
 */
export function renderVerdict(v: Verdict): string {
  const label: Record<HalfMode, string> = { basic: 'basic', research: 'research', agentic_research: 'agentic' };
  const out = [
    `| half | set | ${HALF_MODES.map((m) => label[m]).join(' | ')} |`,
    `|---|---|${'---|'.repeat(HALF_MODES.length)}`,
  ];
  for (const half of ['check', 'tuning'] as const) {
    const sets = [...new Set(v.deltas.filter((d) => d.half === half).map((d) => d.set))];
    for (const set of sets) {
      const cells = HALF_MODES.map((m) => {
        const d = v.deltas.find((x) => x.half === half && x.set === set && x.mode === m)!;
        const c = d.churn;
        return `${d.before} -> ${d.after} of ${d.n}${c && (c.gained || c.lost) ? ` (+${c.gained} -${c.lost})` : ''}`;
      });
      out.push(`| ${half} | ${set} | ${cells.join(' | ')} |`);
    }
  }
  const types = [...new Set(v.typeDeltas.map((d) => `${d.set}\u0000${d.type}`))];
  if (types.length) {
    out.push(
      '',
      'Check half by question type, where it moved:',
      '',
      `| set | type | ${HALF_MODES.map((m) => label[m]).join(' | ')} |`,
      `|---|---|${'---|'.repeat(HALF_MODES.length)}`,
    );
    for (const key of types) {
      const [set, type] = key.split('\u0000');
      const cells = HALF_MODES.map((m) => {
        const d = v.typeDeltas.find((x) => x.set === set && x.type === type && x.mode === m)!;
        return `${d.before} -> ${d.after} of ${d.n}`;
      });
      out.push(`| ${set} | ${type} | ${cells.join(' | ')} |`);
    }
  }
  out.push(
    '',
    `Check half, summed over the sets: ${HALF_MODES.map((m) => `${label[m]} ${signed(v.checkGain[m])}`).join(', ')}.`,
  );
  const say = (name: string, r: { keep: boolean; reasons: string[] }) =>
    `${name}: ${r.keep ? 'keep' : `do not keep (${r.reasons.join('; ')})`}.`;
  out.push(
    say('As a ranking change', v.ranking),
    say('As a fix of what the index holds (model held fixed)', v.indexFix),
  );
  if (v.answers) out.push('', ...renderAnswerDeltas(v.answers, label));
  return out.join('\n');
}

/** The answer metrics before -> after: whole sets, then the check side's question types that moved, then the rule. */
function renderAnswerDeltas(a: NonNullable<Verdict['answers']>, label: Record<HalfMode, string>): string[] {
  const out = [
    'Answer key and answering passage (outside-check: aggregates only):',
    '',
    `| half | set | type | metric | ${HALF_MODES.map((m) => label[m]).join(' | ')} |`,
    `|---|---|---|---|${'---|'.repeat(HALF_MODES.length)}`,
  ];
  const rows = [...new Set(a.deltas.map((d) => `${d.half}|${d.set}|${d.type ?? ''}|${d.metric}`))];
  for (const key of rows) {
    const [half, set, type, metric] = key.split('|');
    const cells = HALF_MODES.map((m) => {
      const d = a.deltas.find((x) => `${x.half}|${x.set}|${x.type ?? ''}|${x.metric}` === key && x.mode === m)!;
      return `${d.before} -> ${d.after} of ${d.n}`;
    });
    out.push(`| ${half} | ${set} | ${type || 'all'} | ${metric} | ${cells.join(' | ')} |`);
  }
  out.push(
    '',
    `Answer key on the check side, summed: ${HALF_MODES.map((m) => `${label[m]} ${signed(a.keyGain[m])}`).join(', ')}.`,
    `By the answer rule: ${a.rule.keep ? 'keep' : `do not keep (${a.rule.reasons.join('; ')})`}.`,
  );
  return out;
}
