/**
 * The answer metrics (bench/lib/answer-metrics.ts) over the halves' questions and outside-check: tallies per set,
 * half, question type and mode, the page-BM25 baseline's beside them (same scoping and token budget), and their
 * markdown. Only aggregates: no question of outside-check is ever named, printed or written out.
 */
import { answerKey, answeringPassage } from './answer-metrics';
import type { PageBm25Baseline } from './baseline';
import type { AnswerSet, DevQuestion, Half, HalfMode, HalfOutcome, Tally } from './halves';

export type AnswerMetric = 'answer key' | 'answering passage' | 'gold-page hit';

/** One metric's tallies for a group of questions (type null: all of the set's half), over those with its gold. */
export interface AnswerRow {
  set: AnswerSet;
  half: Half;
  type: string | null;
  metric: AnswerMetric;
  byMode: Record<HalfMode, Tally>;
  /** The page-BM25 baseline on the same questions (added once the baseline has run: addBaseline). */
  baseline?: Tally;
}

/** A question's scores as the metric reads them (null: no gold for it). */
type Scored = Pick<HalfOutcome, 'id' | 'key' | 'passage' | 'hit'>;

export const ANSWER_SETS: readonly AnswerSet[] = [
  'outside-check',
  'financebench',
  'dev-2',
  'docugami',
  'dev-3',
  'dev-4',
  'dev-5',
];
const METRIC_OF: Record<AnswerMetric, (o: Scored) => boolean | null> = {
  'answer key': (o) => o.key,
  'answering passage': (o) => o.passage,
  'gold-page hit': (o) => o.hit,
};
/** The dev sets report gold-page hit in the halves' headline; outside-check's is reported here. */
const metricsOf = (set: AnswerSet): AnswerMetric[] =>
  set === 'outside-check' ? ['answer key', 'answering passage', 'gold-page hit'] : ['answer key', 'answering passage'];

function tallyOf(rows: readonly Scored[], metric: AnswerMetric): Tally {
  const scored = rows.map(METRIC_OF[metric]).filter((x): x is boolean => x !== null);
  return { k: scored.filter(Boolean).length, n: scored.length };
}

/** The groups a set's questions are tallied in: the whole half, then each question type. */
function groups(
  questions: readonly DevQuestion[],
): { set: AnswerSet; half: Half; type: string | null; ids: Set<string> }[] {
  const out = [];
  for (const set of ANSWER_SETS) {
    const inSet = questions.filter((q) => q.set === set);
    const types = [...new Set(inSet.flatMap((q) => q.types))].sort();
    for (const half of ['check', 'tuning'] as const) {
      const inHalf = inSet.filter((q) => q.half === half);
      if (!inHalf.length) continue;
      out.push({ set, half, type: null, ids: new Set(inHalf.map((q) => q.id)) });
      for (const type of types) {
        const ids = new Set(inHalf.filter((q) => q.types.includes(type)).map((q) => q.id));
        if (ids.size) out.push({ set, half, type, ids });
      }
    }
  }
  return out;
}

/**
 * Answer key and passage (and outside-check's gold-page hit) per set, half, type and mode; a row with no gold for
 * its metric is left out.
 */
export function summarizeAnswers(
  questions: readonly DevQuestion[],
  outcomes: readonly HalfOutcome[],
  modes: readonly HalfMode[],
): AnswerRow[] {
  const out: AnswerRow[] = [];
  for (const g of groups(questions)) {
    for (const metric of metricsOf(g.set)) {
      const byMode = Object.fromEntries(
        modes.map((m) => [
          m,
          tallyOf(
            outcomes.filter((o) => o.mode === m && g.ids.has(o.id)),
            metric,
          ),
        ]),
      ) as Record<HalfMode, Tally>;
      if (modes.every((m) => byMode[m].n === 0)) continue;
      out.push({ set: g.set, half: g.half, type: g.type, metric, byMode });
    }
  }
  return out;
}

/** The baseline's scores per question: its pages for the question, scoped and cut to the token cap as ours. */
export function baselineAnswers(
  base: PageBm25Baseline,
  questions: readonly DevQuestion[],
  filingOf: ReadonlyMap<string, string>,
  cap: number,
): Scored[] {
  return questions.map((q) => {
    const hits = base.query(q.question, cap, base.conditionsFor(q.question));
    const pieces = hits.map((h) => ({ filings: [filingOf.get(h.docId) ?? h.docId], text: h.text }));
    const pages = new Set(hits.map((h) => `${h.docId}#${h.page}`));
    return {
      id: q.id,
      key: q.answerGold.key && answerKey(q.answerGold.key, hits.map((h) => h.text).join('\n')),
      passage: answeringPassage(q.answerGold.passages, pieces),
      hit: q.goldPages.length ? q.goldPages.some((p) => pages.has(p)) : null,
    };
  });
}

/** The rows with the baseline's tallies on the same questions. */
export function addBaseline(
  rows: readonly AnswerRow[],
  questions: readonly DevQuestion[],
  baseline: readonly Scored[],
): AnswerRow[] {
  const ids = new Map(groups(questions).map((g) => [`${g.set}|${g.half}|${g.type}`, g.ids]));
  return rows.map((r) => {
    const inGroup = ids.get(`${r.set}|${r.half}|${r.type}`) ?? new Set<string>();
    return {
      ...r,
      baseline: tallyOf(
        baseline.filter((b) => inGroup.has(b.id)),
        r.metric,
      ),
    };
  });
}

const cell = (t: Tally | undefined) => (t?.n ? `${t.k}/${t.n} (${Math.round((100 * t.k) / t.n)}%)` : '-');
const MODE_LABEL: Record<HalfMode, string> = { basic: 'basic', research: 'research', agentic_research: 'agentic' };

function table(rows: readonly AnswerRow[], modes: readonly HalfMode[], withType: boolean): string[] {
  const head = [
    'set',
    'half',
    ...(withType ? ['type'] : []),
    'metric',
    ...modes.map((m) => MODE_LABEL[m]),
    'page BM25',
  ];
  const out = [`| ${head.join(' | ')} |`, `|${'---|'.repeat(head.length)}`];
  for (const r of rows) {
    const half = r.set === 'outside-check' ? '(check set)' : r.half;
    const cells = [r.set, half, ...(withType ? [r.type ?? ''] : []), r.metric, ...modes.map((m) => cell(r.byMode[m]))];
    out.push(`| ${[...cells, cell(r.baseline)].join(' | ')} |`);
  }
  return out;
}

/** The answer metrics as markdown: per set and half, then per question type. */
export function renderAnswers(rows: readonly AnswerRow[], modes: readonly HalfMode[], cap: number): string {
  return [
    '## Answer key and answering passage',
    '',
    `In-process, medium effort, ${cap.toLocaleString('en-US')} tokens, beside the page-BM25 baseline given the same ` +
      'scoping (research-mode inference: the company and years named, all its filings when none) and budget.',
    'Definitions: ../shared/bench/README.md (outside-check) and bench/README.md "Answer metrics"; n counts the',
    'questions with that gold. outside-check is a check set: never tuned on, only these aggregates are printed.',
    '',
    ...table(
      rows.filter((r) => r.type === null),
      modes,
      false,
    ),
    '',
    '### Answer metrics by question type',
    '',
    ...table(
      rows.filter((r) => r.type !== null),
      modes,
      true,
    ),
    '',
  ].join('\n');
}
