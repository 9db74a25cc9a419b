/**
 * The dev questions split by company into the tuning and check halves of bench/split.json, asked in-process
 * (runQuery through askInProcess: no Worker, exact vector scans) in basic, research and agentic mode, medium effort,
 * 4,000 tokens. Tune on the tuning half; a change is kept only when the check half gains (bench/split.json "about").
 *
 * A question's company, the key of the split:
 *   FinanceBench dev  its doc's ticker (the corpus's documents.jsonl)
 *   dev-2, dev-3 to 5  its gold doc's ticker
 *   docugami 10-Q     its source docs' ticker
 * Every dev question has exactly one; a question with none or several stops the run (the split would be ambiguous).
 *
 * dev-3 and dev-5 are on the tuning half only (bench/dev-3/README.md, bench/dev-5/README.md), dev-4 on the check half
 * only (bench/dev-4/README.md).
 *
 * Scores: gold-page hit (FinanceBench, dev-2 to dev-5: a returned entry cites a gold page) and answer support
 * (all; docugami has no page gold, so answer support is its figure); the answer key and answering passage
 * (bench/lib/answer-metrics.ts) of every question with that gold (bench/lib/answer-gold.ts).
 *
 * outside-check (../shared/bench/outside-check.jsonl) is asked with them as a set of its own, counted in the check
 * half: it is a check set, never tuned on. Only its aggregate figures are reported (no question, answer or miss).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexReader } from '../../index-format/index-reader';
import {
  filingKeys,
  financeBenchGold,
  NO_ANSWER_GOLD,
  outsideCheckGold,
  printedKeyGold,
  type AnswerGold,
  type CorpusDoc,
} from './answer-gold';
import { answerKey, answeringPassage } from './answer-metrics';
import { summarizeAnswers, type AnswerRow } from './answers';
import { askInProcess } from './ask';
import type { EvidenceEntry } from './evidence';
import type { LoadedCatalog } from './catalog';
import type { PageStore } from './corpus-pages';
import { readJsonl } from './jsonl';
import { answerSupport, docugamiAnswer, percentile } from './score';

export type Half = 'tuning' | 'check';
export type DevSet = 'financebench' | 'dev-2' | 'docugami' | WrittenSet;
/** The sets written for this project as spans of the corpus pages (bench/dev-3, bench/dev-4, bench/dev-5). */
export type WrittenSet = 'dev-3' | 'dev-4' | 'dev-5';
/** The dev sets and the outside check set: what the answer metrics are reported for. */
export type AnswerSet = DevSet | 'outside-check';
export const HALF_MODES = ['basic', 'research', 'agentic_research'] as const;
export type HalfMode = (typeof HALF_MODES)[number];

export interface DevQuestion {
  set: AnswerSet;
  id: string;
  question: string;
  answer: string;
  /** FinanceBench's justification or dev-2's inputs (answer support reads the named inputs of computed answers). */
  justification: string | null;
  /** Page gold as doc_id#page keys, any of which counts; empty for docugami. */
  goldPages: string[];
  company: string;
  half: Half;
  /** The question's type: FinanceBench question_type and answer form, dev-2 kind, docugami question_type. */
  types: string[];
  /** The answer key and gold passages (bench/lib/answer-gold.ts); empty without the pages to derive them from. */
  answerGold: AnswerGold;
}

/**
 * The number of `retrieve` calls a request made, read from its trace. Today every executed pass (not a skipped
 * fill) is one call, plus one when the pass took a preference retrieval; a trace that counts its calls itself
 * (`retrieveCalls`) is read as is.
 */
export function retrieveCalls(trace: {
  passes: readonly { skipped?: true; preference: unknown }[];
  retrieveCalls?: number;
}): number {
  if (typeof trace.retrieveCalls === 'number') return trace.retrieveCalls;
  return trace.passes.filter((p) => !p.skipped).reduce((n, p) => n + 1 + (p.preference ? 1 : 0), 0);
}

function loadSplit(root: string): Map<string, Half> {
  const split = JSON.parse(readFileSync(join(root, 'bench/split.json'), 'utf8')) as Record<Half, string[]>;
  return new Map<string, Half>([
    ...split.tuning.map((t) => [t, 'tuning'] as const),
    ...split.check.map((t) => [t, 'check'] as const),
  ]);
}

function onlyTicker(id: string, docIds: readonly string[], tickerOf: Map<string, string>): string {
  const tickers = new Set(docIds.map((d) => tickerOf.get(d)));
  if (tickers.size !== 1 || tickers.has(undefined))
    throw new Error(`question ${id}: expected one company, found ${[...tickers].join(', ')}`);
  return [...tickers][0]!;
}

function readDocs(shared: string): CorpusDoc[] {
  return readJsonl<CorpusDoc>(join(shared, 'corpus/filings/documents.jsonl'));
}

/**
 * FinanceBench dev, dev-2, docugami 10-Q dev, dev-3 and dev-4, each question with its company and half; with the
 * corpus pages, each with its answer gold (bench/lib/answer-gold.ts).
 */
export function readDevQuestions(root: string, shared: string, pages?: PageStore): DevQuestion[] {
  const docs = readDocs(shared);
  const tickerOf = new Map(docs.map((d) => [d.doc_id, d.ticker]));
  const filingOf = filingKeys(docs);
  const halves = loadSplit(root);
  const halfOf = (id: string, company: string): Half => {
    const half = halves.get(company);
    if (!half) throw new Error(`question ${id}: company ${company} is in neither half of bench/split.json`);
    return half;
  };
  const out: DevQuestion[] = [];
  type FbRow = {
    id: string;
    question: string;
    question_type: string;
    answer: string;
    justification: string | null;
    doc_id: string;
    evidence: { doc_id: string; page: number; evidence_text: string }[];
  };
  for (const r of readJsonl<FbRow>(join(shared, 'bench/financebench-dev.jsonl'))) {
    const company = onlyTicker(r.id, [r.doc_id], tickerOf);
    const form = /\d/.test(r.answer) ? 'numeric' : 'descriptive';
    out.push({
      set: 'financebench',
      id: r.id,
      question: r.question,
      answer: r.answer,
      justification: r.justification,
      goldPages: r.evidence.map((e) => `${e.doc_id}#${e.page}`),
      company,
      half: halfOf(r.id, company),
      types: [r.question_type, `answer ${form}`],
      answerGold: pages ? financeBenchGold(r, filingOf, (d, p) => pages.text(d, p)) : NO_ANSWER_GOLD,
    });
  }
  type Dev2Row = {
    id: string;
    kind: string;
    question: string;
    answer: string;
    inputs?: string;
    gold: { doc_id: string; page: number; alt_pages?: number[] }[];
  };
  for (const r of readJsonl<Dev2Row>(join(root, 'bench/dev-2/questions.jsonl'))) {
    const company = onlyTicker(
      r.id,
      r.gold.map((g) => g.doc_id),
      tickerOf,
    );
    const goldPages = r.gold.flatMap((g) => [g.page, ...(g.alt_pages ?? [])].map((p) => `${g.doc_id}#${p}`));
    out.push({
      set: 'dev-2',
      id: r.id,
      question: r.question,
      answer: r.answer,
      justification: r.inputs ?? null,
      goldPages,
      company,
      half: halfOf(r.id, company),
      types: [r.kind],
      answerGold: pages ? printedKeyGold(r.answer, pages.texts(goldPages).join('\n'), true) : NO_ANSWER_GOLD,
    });
  }
  type DocugamiRow = {
    id: string;
    question: string;
    answer: string;
    question_type: string;
    source_doc_ids: string[];
    cited_doc_ids?: string[];
  };
  for (const r of readJsonl<DocugamiRow>(join(shared, 'bench/docugami-10q-dev.jsonl'))) {
    const company = onlyTicker(r.id, r.source_doc_ids, tickerOf);
    const answer = docugamiAnswer(r.answer);
    const cited = r.cited_doc_ids?.length ? r.cited_doc_ids : r.source_doc_ids;
    out.push({
      set: 'docugami',
      id: r.id,
      question: r.question,
      answer,
      justification: null,
      goldPages: [],
      company,
      half: halfOf(r.id, company),
      types: [r.question_type],
      answerGold: pages
        ? printedKeyGold(answer, cited.map((d) => pages.filingText(d)).join('\n'), false)
        : NO_ANSWER_GOLD,
    });
  }
  for (const set of ['dev-3', 'dev-4', 'dev-5'] as const)
    out.push(...readWrittenSet(root, set, tickerOf, filingOf, halfOf, pages));
  return out;
}

/**
 * dev-3, dev-4 and dev-5 (bench/dev-3, bench/dev-4, bench/dev-5): analyst-style questions written for this project,
 * dev-3 and dev-5 on tuning companies and dev-4 on check companies, their gold passages located in the corpus pages
 * (doc, page, character span) rather than copied, read from the pages when they are given.
 */
function readWrittenSet(
  root: string,
  set: WrittenSet,
  tickerOf: Map<string, string>,
  filingOf: ReadonlyMap<string, string>,
  halfOf: (id: string, company: string) => Half,
  pages?: PageStore,
): DevQuestion[] {
  type WrittenRow = {
    id: string;
    kind: string;
    question: string;
    answer: string;
    gold: { doc_id: string; page: number; start: number; end: number }[];
    key_figures: string[];
    key_terms: string[];
  };
  return readJsonl<WrittenRow>(join(root, `bench/${set}/questions.jsonl`)).map((r) => {
    const company = onlyTicker(
      r.id,
      r.gold.map((g) => g.doc_id),
      tickerOf,
    );
    // A span whose page the corpus lacks stops the run: an empty gold passage would count as answered.
    const spanText = (g: WrittenRow['gold'][number]) => {
      const page = pages!.text(g.doc_id, g.page);
      if (page === undefined) throw new Error(`question ${r.id}: no corpus page ${g.doc_id}#${g.page}`);
      return page.slice(g.start, g.end);
    };
    return {
      set,
      id: r.id,
      question: r.question,
      answer: r.answer,
      justification: null,
      goldPages: r.gold.map((g) => `${g.doc_id}#${g.page}`),
      company,
      half: halfOf(r.id, company),
      types: [r.kind],
      answerGold: pages
        ? outsideCheckGold(
            { ...r, evidence: r.gold.map((g) => ({ doc_id: g.doc_id, evidence_text: spanText(g) })) },
            filingOf,
          )
        : NO_ANSWER_GOLD,
    };
  });
}

/**
 * ../shared/bench/outside-check.jsonl as a set of its own, in the check half (a check set: never tuned on), or none
 * when the file is absent. Its gold is its own (answer key, passages, pages); nothing of it is ever printed.
 */
export function readOutsideCheck(shared: string): DevQuestion[] {
  const file = join(shared, 'bench/outside-check.jsonl');
  if (!existsSync(file)) return [];
  const filingOf = filingKeys(readDocs(shared));
  type Row = {
    id: string;
    question: string;
    answer: string;
    question_type: string;
    ticker: string;
    evidence: { doc_id: string; page: number; evidence_text: string }[];
    key_figures?: string[];
    key_terms?: string[];
  };
  return readJsonl<Row>(file).map((r) => ({
    set: 'outside-check',
    id: r.id,
    question: r.question,
    answer: r.answer,
    justification: null,
    goldPages: r.evidence.map((e) => `${e.doc_id}#${e.page}`),
    company: r.ticker,
    half: 'check',
    types: [r.question_type],
    answerGold: outsideCheckGold(r, filingOf),
  }));
}

export interface HalfOutcome {
  id: string;
  mode: HalfMode;
  /** null for docugami (no page gold). */
  hit: boolean | null;
  support: boolean;
  /** The answer metrics (bench/lib/answer-metrics.ts); null for a question without that gold. */
  key: boolean | null;
  passage: boolean | null;
  retrieveCalls: number;
  ms: number;
}

export const HALF_CAP = 4000;

/**
 * Every dev question in every mode, in-process; returns one outcome per (question, mode). `filingOf` maps a doc_id
 * to its filing key (answer-gold.ts filingKeys), which the answering passage compares.
 */
export async function askHalves(
  reader: IndexReader,
  cat: LoadedCatalog,
  questions: readonly DevQuestion[],
  filingOf: ReadonlyMap<string, string>,
  log: (s: string) => void,
): Promise<HalfOutcome[]> {
  const out: HalfOutcome[] = [];
  for (const mode of HALF_MODES) {
    for (const q of questions) {
      const t0 = performance.now();
      const r = await askInProcess(reader, { query: q.question, mode, cap: HALF_CAP });
      const ms = performance.now() - t0;
      out.push({
        id: q.id,
        mode,
        ...scoreEntries(q, r.entries, cat, filingOf),
        retrieveCalls: retrieveCalls(r.trace),
        ms,
      });
    }
    log(`  halves: ${mode} done`);
  }
  return out;
}

/** The corpus page an entry's source occurrence cites, as gold pages are written ("<doc_id>#<page>"). */
export function occurrencePage(cat: LoadedCatalog, o: EvidenceEntry['occurrences'][number]): string {
  return `${cat.byId.get(o.sourceId)?.doc_id}#${o.page}`;
}

/** A question's scores on a response's entries: gold-page hit, answer support, answer key, answering passage. */
export function scoreEntries(
  q: DevQuestion,
  entries: readonly EvidenceEntry[],
  cat: LoadedCatalog,
  filingOf: ReadonlyMap<string, string>,
): Pick<HalfOutcome, 'hit' | 'support' | 'key' | 'passage'> {
  const pages = new Set(entries.flatMap((e) => e.occurrences.map((o) => occurrencePage(cat, o))));
  const text = entries.map((e) => e.text).join('\n');
  const pieces = entries.map((e) => ({
    filings: e.occurrences.map((o) => filingOf.get(cat.byId.get(o.sourceId)?.doc_id ?? '') ?? ''),
    text: e.text,
  }));
  return {
    hit: q.goldPages.length ? q.goldPages.some((p) => pages.has(p)) : null,
    support: answerSupport({ answer: q.answer, justification: q.justification, question: q.question }, text).supported,
    key: q.answerGold.key && answerKey(q.answerGold.key, text),
    passage: answeringPassage(q.answerGold.passages, pieces),
  };
}

/** A count of n questions of which k scored. */
export interface Tally {
  k: number;
  n: number;
}

export interface HalvesSummary {
  cap: number;
  /** Per set: the headline score per half and mode (gold-page hit, or answer support for docugami). */
  headline: { set: DevSet; score: 'gold-page hit' | 'answer support'; half: Half; byMode: Record<HalfMode, Tally> }[];
  /** Per set and question type: the same score per half and mode. */
  byType: { set: DevSet; type: string; half: Half; byMode: Record<HalfMode, Tally> }[];
  /** Answer support of FinanceBench and dev-2 per half and mode (docugami's is its headline). */
  support: { set: DevSet; half: Half; byMode: Record<HalfMode, Tally> }[];
  retrieveCalls: { mode: HalfMode; p50: number | null; max: number; maxQuestion: string | null; mean: number | null }[];
  inProcessMs: { mode: HalfMode; p50: number | null; p95: number | null }[];
  /** Answer key, answering passage (and outside-check's gold-page hit) per set, half and type (lib/answers.ts). */
  answers?: AnswerRow[];
  /**
   * Each dev question's headline score per mode (not outside-check's), so a judgement counts the questions a change
   * gained and lost, not only their sum (bench/lib/judge.ts).
   */
  scored?: { id: string; set: DevSet; half: Half; mode: HalfMode; headline: boolean }[];
}

const SETS: DevSet[] = ['financebench', 'dev-2', 'docugami', 'dev-3', 'dev-4', 'dev-5'];
const HALVES: Half[] = ['tuning', 'check'];

export function summarizeHalves(questions: readonly DevQuestion[], outcomes: readonly HalfOutcome[]): HalvesSummary {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const headlineOf = (o: HalfOutcome) => (o.hit === null ? o.support : o.hit);
  const tally = (qs: readonly DevQuestion[], score: (o: HalfOutcome) => boolean): Record<HalfMode, Tally> => {
    const ids = new Set(qs.map((q) => q.id));
    const entries = HALF_MODES.map((mode) => {
      const rows = outcomes.filter((o) => o.mode === mode && ids.has(o.id));
      return [mode, { k: rows.filter(score).length, n: rows.length }] as const;
    });
    return Object.fromEntries(entries) as Record<HalfMode, Tally>;
  };
  const summary: HalvesSummary = {
    cap: HALF_CAP,
    headline: [],
    byType: [],
    support: [],
    retrieveCalls: [],
    inProcessMs: [],
    answers: summarizeAnswers(questions, outcomes, HALF_MODES),
    scored: outcomes.flatMap((o) => {
      const q = byId.get(o.id);
      return q && q.set !== 'outside-check'
        ? [{ id: o.id, set: q.set, half: q.half, mode: o.mode, headline: headlineOf(o) }]
        : [];
    }),
  };
  for (const set of SETS) {
    const inSet = questions.filter((q) => q.set === set);
    const types = [...new Set(inSet.flatMap((q) => q.types))].sort();
    for (const half of HALVES) {
      const inHalf = inSet.filter((q) => q.half === half);
      // dev-3 and dev-5 have no check half and dev-4 no tuning half: no row of nothing.
      if (!inHalf.length) continue;
      summary.headline.push({
        set,
        score: set === 'docugami' ? 'answer support' : 'gold-page hit',
        half,
        byMode: tally(inHalf, headlineOf),
      });
      if (set !== 'docugami') summary.support.push({ set, half, byMode: tally(inHalf, (o) => o.support) });
      for (const type of types)
        summary.byType.push({
          set,
          type,
          half,
          byMode: tally(
            inHalf.filter((q) => q.types.includes(type)),
            headlineOf,
          ),
        });
    }
  }
  // Calls and times are the dev questions' (outside-check's are not reported one by one, not even the slowest).
  const dev = outcomes.filter((o) => byId.get(o.id)?.set !== 'outside-check');
  for (const mode of HALF_MODES) {
    const rows = dev.filter((o) => o.mode === mode);
    const calls = rows.map((o) => o.retrieveCalls);
    const top = rows.reduce<HalfOutcome | null>((a, o) => (!a || o.retrieveCalls > a.retrieveCalls ? o : a), null);
    summary.retrieveCalls.push({
      mode,
      p50: percentile(calls, 50),
      max: Math.max(0, ...calls),
      maxQuestion: top ? `${top.id} (${byId.get(top.id)?.set})` : null,
      mean: calls.length ? Math.round((calls.reduce((a, b) => a + b, 0) / calls.length) * 100) / 100 : null,
    });
    const ms = rows.map((o) => o.ms);
    const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
    summary.inProcessMs.push({ mode, p50: round1(percentile(ms, 50)), p95: round1(percentile(ms, 95)) });
  }
  return summary;
}

const MODE_LABEL: Record<HalfMode, string> = { basic: 'basic', research: 'research', agentic_research: 'agentic' };
const cell = (t: Tally) => (t.n ? `${t.k}/${t.n} (${Math.round((100 * t.k) / t.n)}%)` : '-');

/** The halves as markdown: the headline (check beside tuning), by question type, answer support, retrieve calls. */
export function renderHalves(s: HalvesSummary): string {
  const modes = HALF_MODES.map((m) => MODE_LABEL[m]);
  const head = `| ${modes.flatMap((m) => [`${m} check`, `${m} tuning`]).join(' | ')} |`;
  const rule = `|${'---|'.repeat(HALF_MODES.length * 2)}`;
  const pair = (find: (half: Half) => Record<HalfMode, Tally> | undefined) =>
    HALF_MODES.flatMap((m) =>
      HALVES.slice()
        .reverse()
        .map((h) => cell(find(h)?.[m] ?? { k: 0, n: 0 })),
    ).join(' | ');
  const out = [
    '## Tuning and check halves',
    '',
    `In-process (runQuery, exact vector scans), medium effort, ${s.cap.toLocaleString('en-US')} tokens; ` +
      `companies split by bench/split.json.`,
    'The check half is the headline: tune on the tuning half only.',
    '',
    `| set | score | ${head.slice(2)}`,
    `|---|---|${rule.slice(1)}`,
  ];
  for (const set of SETS) {
    const rows = s.headline.filter((h) => h.set === set);
    out.push(`| ${set} | ${rows[0]!.score} | ${pair((h) => rows.find((r) => r.half === h)?.byMode)} |`);
  }
  for (const set of SETS.filter((x) => x !== 'docugami')) {
    const rows = s.support.filter((h) => h.set === set);
    out.push(`| ${set} | answer support | ${pair((h) => rows.find((r) => r.half === h)?.byMode)} |`);
  }
  out.push(
    '',
    '### By question type',
    '',
    `| set | type (score as above) | ${head.slice(2)}`,
    `|---|---|${rule.slice(1)}`,
  );
  for (const set of SETS) {
    const types = [...new Set(s.byType.filter((r) => r.set === set).map((r) => r.type))];
    for (const type of types) {
      const rows = s.byType.filter((r) => r.set === set && r.type === type);
      out.push(`| ${set} | ${type} | ${pair((h) => rows.find((r) => r.half === h)?.byMode)} |`);
    }
  }
  out.push(
    '',
    '### `retrieve` calls per question and in-process time',
    '',
    '| mode | retrieve p50 | retrieve max | mean | max at | in-process ms p50 / p95 |',
    '|---|---|---|---|---|---|',
  );
  for (const r of s.retrieveCalls) {
    const ms = s.inProcessMs.find((m) => m.mode === r.mode)!;
    out.push(
      `| ${MODE_LABEL[r.mode]} | ${r.p50 ?? 'n/a'} | ${r.max} | ${r.mean ?? 'n/a'} | ${r.maxQuestion ?? '-'} ` +
        `| ${ms.p50 ?? 'n/a'} / ${ms.p95 ?? 'n/a'} |`,
    );
  }
  out.push(
    '',
    'In-process ms: each question asked once, in set order (the first asks load artifacts from disk); `npm ' +
      'run bench:warm` measures warm latency.',
    '',
  );
  return out.join('\n');
}
