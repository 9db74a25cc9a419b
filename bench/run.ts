/**
 * npm run bench: the dev questions' tuning and check halves in-process (bench/lib/halves.ts, with `retrieve` calls
 * per question), then retrieval quality on real benchmark questions against a page-BM25 baseline, latency inside
 * workerd, artifact-cache bytes and build cost, in one command. bench/README.md says how to read the output.
 * Writes bench/RESULTS.md (the latest run only, overwritten) and the JSON of every figure.
 *   SHARED_DIR   the shared data (default ../shared relative to the repo root)
 *   BENCH_PORT   wrangler dev port (default 8791; inspector on BENCH_INSPECTOR_PORT, default 9291)
 *   BENCH_OUT    JSON output (default bench/results/latest.json)
 *   --halves-only  print the halves and the answer metrics (with the page baseline's) and stop (no Worker;
 *                  bench/RESULTS.md is left as it is)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Condition } from '../src/filters/parse';
import { PageBm25Baseline, type BaselineHit } from './lib/baseline';
import { loadCatalog, type LoadedCatalog } from './lib/catalog';
import { PageStore, readPages } from './lib/corpus-pages';
import { parseEvidence, type EvidenceEntry } from './lib/evidence';
import { readFinqa, writeFinqaCorpus } from './lib/finqa-corpus';
import { filingKeys, type CorpusDoc } from './lib/answer-gold';
import { addBaseline, baselineAnswers, renderAnswers } from './lib/answers';
import { askHalves, HALF_MODES, readDevQuestions, readOutsideCheck, renderHalves, summarizeHalves } from './lib/halves';
import { ensureIndex } from './lib/index-cache';
import { readJsonl } from './lib/jsonl';
import { renderMarkdown } from './lib/report';
import {
  answerSupport,
  containment,
  docugamiAnswer,
  counts,
  extractNumbers,
  hasNumber,
  keyTerms,
  mappedPassages,
  mean,
  ndcgAt,
  numberIndex,
  overlapTokens,
  percentile,
  toPassage,
} from './lib/score';
import { benchApiKey, startWorker, type RunningWorker, type WorkerLog } from './lib/worker';
import { openFileIndex } from '../test/support/file-index';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '..', 'shared'));
const PORT = Number(process.env.BENCH_PORT ?? 8791);
const INSPECTOR_PORT = Number(process.env.BENCH_INSPECTOR_PORT ?? 9291);
const OUT = resolve(process.env.BENCH_OUT ?? join(ROOT, 'bench/results/latest.json'));
const RESULTS_MD = join(ROOT, 'bench/RESULTS.md');
const HALVES_ONLY = process.argv.includes('--halves-only');
const CACHE = join(ROOT, 'bench/.cache');
export const CAP = 4000;

type Mode = 'basic' | 'research' | 'agentic_research';
type Effort = 'low' | 'medium' | 'high';
const MODES: Mode[] = ['basic', 'research', 'agentic_research'];
const EFFORTS: Effort[] = ['low', 'medium', 'high'];
const ALL_CONFIGS = MODES.flatMap((mode) => EFFORTS.map((effort) => ({ mode, effort })));

const log = (s: string) => console.error(s);
const round = (x: number | null, d = 3) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : round(a / b, 2));

/** One piece of gold evidence: a page of a filing, or any of several pages that state the same fact. */
interface Gold {
  docId: string;
  pages: number[];
}
interface PageQuestion {
  id: string;
  question: string;
  answer: string;
  justification?: string | null;
  gold: Gold[];
  kind?: string;
}

// ---------------------------------------------------------------- requests

interface Sent {
  mode: Mode;
  effort: Effort;
  cap: number | null;
  status: number;
  clientMs: number;
  log: WorkerLog | undefined;
  entries: EvidenceEntry[];
  body: Record<string, unknown>;
}
const sent: Sent[] = [];
/** Requests that got no HTTP response at all (connection refused/reset), each with wrangler's last output. */
const transportErrors: {
  query: string;
  mode: Mode;
  effort: Effort;
  cap: number | null;
  error: string;
  worker_output_tail: string;
}[] = [];

let staleConnectionRetries = 0;

/** The running Worker; replaced (and counted) when wrangler dies under the bench. */
let current: { w: RunningWorker; persistDir: string; restarts: number } | null = null;

async function ask(
  _w: RunningWorker,
  query: string,
  mode: Mode,
  effort: Effort,
  cap: number | null,
  filters?: Record<string, unknown>,
): Promise<Sent> {
  const body: Record<string, unknown> = { query, mode, effort, retrieval: { max_evidence_tokens: cap } };
  if (filters) body.metadata_filters = filters;
  const w = current!.w;
  const post = () =>
    fetch(`${w.base}/v2/sp500/query`, {
      method: 'POST',
      headers: { 'X-API-Key': benchApiKey(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  let t0 = performance.now();
  let res: Response;
  try {
    try {
      res = await post();
    } catch (first) {
      // A kept-alive connection that the server closed while idle (between benchmark sets) fails before the
      // request reaches the Worker ("other side closed", EPIPE); one retry on a new connection, counted.
      if (w.hasExited()) throw first;
      staleConnectionRetries++;
      t0 = performance.now();
      res = await post();
    }
  } catch (err) {
    const tail = w.output().slice(-3000);
    transportErrors.push({
      query: query.slice(0, 120),
      mode,
      effort,
      cap,
      error: String((err as Error).cause ?? err),
      worker_output_tail: tail,
    });
    log(
      `  no response for "${query.slice(0, 60)}" (${mode}/${effort}/${cap}): ` +
        `${String((err as Error).cause ?? err)}; wrangler exited: ${w.hasExited()}\n${tail.slice(-1500)}`,
    );
    if (transportErrors.length > 5) throw new Error('more than 5 requests got no response; stopping');
    await w.stop();
    current!.w = await startWorker(ROOT, current!.persistDir, PORT, INSPECTOR_PORT);
    current!.restarts++;
    const rec: Sent = {
      mode,
      effort,
      cap,
      status: 0,
      clientMs: performance.now() - t0,
      log: undefined,
      entries: [],
      body: {},
    };
    sent.push(rec);
    return rec;
  }
  const json = (await res.json()) as Record<string, unknown>;
  const clientMs = performance.now() - t0;
  const rec: Sent = {
    mode,
    effort,
    cap,
    status: res.status,
    clientMs,
    log: await w.logOf(res.headers.get('x-request-id') ?? ''),
    entries: parseEvidence(json.evidence as string | undefined),
    body: json,
  };
  if (res.status !== 200) log(`  ${res.status} for "${query.slice(0, 60)}": ${JSON.stringify(json).slice(0, 200)}`);
  sent.push(rec);
  return rec;
}

/** (doc_id, page) of every returned statement occurrence. */
function returnedPages(entries: readonly EvidenceEntry[], cat: LoadedCatalog): Set<string> {
  const out = new Set<string>();
  for (const e of entries)
    for (const o of e.occurrences) {
      const src = cat.byId.get(o.sourceId);
      if (src) out.add(`${src.doc_id}#${o.page}`);
    }
  return out;
}
const evidenceText = (entries: readonly EvidenceEntry[]) => entries.map((e) => e.text).join('\n');

// ---------------------------------------------------------------- page-gold sets (FinanceBench, dev-2, blind)

/** A question set written for the project (bench/dev-2, bench/blind): page gold, a kind per question. */
function readProjectSet(file: string) {
  return readJsonl<{
    id: string;
    kind: string;
    question: string;
    answer: string;
    inputs?: string;
    gold: { doc_id: string; page: number; alt_pages?: number[] }[];
  }>(file).map((r) => ({
    id: r.id,
    kind: r.kind,
    question: r.question,
    answer: r.answer,
    justification: r.inputs ?? null,
    gold: r.gold.map((g) => ({ docId: g.doc_id, pages: [g.page, ...(g.alt_pages ?? [])] })),
  }));
}

/** Gold-page hit and answer support per kind, research/medium at the token cap. */
function scoresByKind(
  set: { id: string; kind: string }[],
  perQuestion: Record<string, Record<string, { hit: boolean; support: boolean }>>,
) {
  const out: Record<string, { n: number; gold_page_hit: number | null; answer_support: number | null }> = {};
  const key = `research/medium/${CAP}`;
  for (const kind of [...new Set(set.map((q) => q.kind))].sort()) {
    const ids = set.filter((q) => q.kind === kind).map((q) => q.id);
    out[kind] = {
      n: ids.length,
      gold_page_hit: round(mean(ids.map((id) => (perQuestion[id]![key]!.hit ? 1 : 0)))),
      answer_support: round(mean(ids.map((id) => (perQuestion[id]![key]!.support ? 1 : 0)))),
    };
  }
  return out;
}

interface PageScores {
  n: number;
  gold_page_hit: number | null;
  answer_support: number | null;
  /** Questions with two or more gold pages: every gold page covered. */
  multi_page_n: number;
  all_gold_pages_covered: number | null;
  mean_tokens: number | null;
}

function scorePageQuestion(q: PageQuestion, pages: Set<string>, text: string) {
  const seen = new Set<string>();
  const gold = q.gold.filter((g) => {
    const key = `${g.docId}#${g.pages.join(',')}`;
    return !seen.has(key) && seen.add(key);
  });
  const covered = (g: Gold) => g.pages.some((p) => pages.has(`${g.docId}#${p}`));
  return {
    hit: gold.some(covered),
    allCovered: gold.every(covered),
    multi: gold.length >= 2,
    support: answerSupport({ answer: q.answer, justification: q.justification ?? null, question: q.question }, text)
      .supported,
  };
}

function aggregate(
  rows: { hit: boolean; allCovered: boolean; multi: boolean; support: boolean; tokens?: number }[],
): PageScores {
  const multi = rows.filter((r) => r.multi);
  const rate = (xs: boolean[]) => round(mean(xs.map((x) => (x ? 1 : 0))));
  return {
    n: rows.length,
    gold_page_hit: rate(rows.map((r) => r.hit)),
    answer_support: rate(rows.map((r) => r.support)),
    multi_page_n: multi.length,
    all_gold_pages_covered: rate(multi.map((r) => r.allCovered)),
    mean_tokens: round(mean(rows.map((r) => r.tokens ?? 0)), 0),
  };
}

async function runPageSet(
  w: RunningWorker,
  cat: LoadedCatalog,
  base: PageBm25Baseline,
  questions: PageQuestion[],
  label: string,
) {
  const configs: (PageScores & { mode: Mode; effort: Effort; cap: number | null })[] = [];
  const perQuestion: Record<string, Record<string, { hit: boolean; support: boolean }>> = {};
  for (const { mode, effort } of ALL_CONFIGS) {
    for (const cap of [CAP, null]) {
      const rows = [];
      for (const q of questions) {
        const r = await ask(w, q.question, mode, effort, cap);
        const s = scorePageQuestion(q, returnedPages(r.entries, cat), evidenceText(r.entries));
        const budget = r.body.evidence_budget as { estimated_tokens?: number } | undefined;
        rows.push({ ...s, tokens: budget?.estimated_tokens ?? 0 });
        (perQuestion[q.id] ??= {})[`${mode}/${effort}/${cap ?? 'none'}`] = { hit: s.hit, support: s.support };
      }
      configs.push({ mode, effort, cap, ...aggregate(rows) });
    }
    log(`  ${label}: ${mode}/${effort} done`);
  }
  const baseRows = questions.map((q) => {
    const hits = base.query(q.question, CAP, base.conditionsFor(q.question));
    const pages = new Set(hits.map((h) => `${h.docId}#${h.page}`));
    return {
      ...scorePageQuestion(q, pages, hits.map((h) => h.text).join('\n')),
      tokens: Math.ceil(hits.reduce((a, h) => a + h.text.length, 0) / 4),
    };
  });
  const baseline = aggregate(baseRows);
  const ours = configs.find((c) => c.mode === 'research' && c.effort === 'medium' && c.cap === CAP)!;
  return {
    n: questions.length,
    configs,
    baseline: { ...baseline, cap: CAP, filters: 'research-mode inference (src/filters/infer.ts)' },
    comparison: {
      ours: 'research/medium at 4,000 tokens',
      gold_page_hit: {
        ours: ours.gold_page_hit,
        baseline: baseline.gold_page_hit,
        ratio: ratio(ours.gold_page_hit, baseline.gold_page_hit),
      },
      answer_support: {
        ours: ours.answer_support,
        baseline: baseline.answer_support,
        ratio: ratio(ours.answer_support, baseline.answer_support),
      },
    },
    per_question: perQuestion,
  };
}

// ---------------------------------------------------------------- docugami (answer support)

interface DocugamiRow {
  id: string;
  question: string;
  answer: string;
  question_type: string;
}

async function runDocugami(w: RunningWorker, base: PageBm25Baseline, rows: DocugamiRow[]) {
  const answerOf = (r: DocugamiRow) => docugamiAnswer(r.answer);
  const configs = [];
  for (const mode of MODES) {
    for (const cap of [CAP, null]) {
      const supported: number[] = [];
      const fractions: number[] = [];
      const byType: Record<string, number[]> = {};
      for (const r of rows) {
        const res = await ask(w, r.question, mode, 'medium', cap);
        const support = answerSupport({ answer: answerOf(r), question: r.question }, evidenceText(res.entries));
        const s = support.supported ? 1 : 0;
        supported.push(s);
        fractions.push(support.fraction);
        (byType[r.question_type] ??= []).push(s);
      }
      configs.push({
        mode,
        effort: 'medium',
        cap,
        answer_support: round(mean(supported)),
        mean_fraction: round(mean(fractions)),
        by_question_type: Object.fromEntries(
          Object.entries(byType).map(([k, v]) => [k, { n: v.length, answer_support: round(mean(v)) }]),
        ),
      });
    }
    log(`  docugami: ${mode} done`);
  }
  const baseSupport = rows.map((r) => {
    const hits = base.query(r.question, CAP, base.conditionsFor(r.question));
    return answerSupport({ answer: answerOf(r), question: r.question }, hits.map((h) => h.text).join('\n')).supported
      ? 1
      : 0;
  });
  const ours = configs.find((c) => c.mode === 'research' && c.cap === CAP)!;
  const b = round(mean(baseSupport));
  return {
    n: rows.length,
    configs,
    baseline: { answer_support: b, cap: CAP },
    comparison: { ours: ours.answer_support, baseline: b, ratio: ratio(ours.answer_support, b) },
  };
}

// ---------------------------------------------------------------- FinQABench (nDCG@10)

/** A baseline page contains a passage when at least this share of the passage's tokens are on the page. */
const PAGE_PASSAGE_CONTAINMENT = 0.5;

async function runFinqabench(w: RunningWorker, base: PageBm25Baseline) {
  const dir = join(SHARED, 'bench/finqabench');
  const corpus = readJsonl<{ _id: string; text: string }>(join(dir, 'corpus.jsonl')).map((p) =>
    toPassage(p._id, p.text),
  );
  const queries = new Map(
    readJsonl<{ _id: string; text: string }>(join(dir, 'queries.jsonl')).map((q) => [q._id, q.text]),
  );
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'qrels.tsv'), 'utf8').split('\n').slice(1)) {
    const [q, d, s] = line.trim().split('\t');
    if (q && d) (qrels.get(q) ?? qrels.set(q, new Map()).get(q)!).set(d, Number(s));
  }
  // The task's corpus is one filing, Apple's FY2022 10-K: the caller scopes the query to it, as the task does.
  const filters = { sec_ticker: 'AAPL', sec_fiscal_year: 'FY-2022', sec_form_type: '10-K' };
  const conditions: Condition[] = [
    { field: 'sec_ticker', op: 'eq', values: ['AAPL'] },
    { field: 'sec_fiscal_year', op: 'eq', values: ['FY-2022'] },
    { field: 'sec_form_type', op: 'eq', values: ['10-K'] },
  ];
  const ours: number[] = [];
  const baseline: number[] = [];
  let mappedStatements = 0;
  let statements = 0;
  for (const [qid, rels] of qrels) {
    const question = queries.get(qid);
    if (!question) continue;
    const res = await ask(w, question, 'research', 'medium', null, filters);
    const ranked: string[] = [];
    for (const e of res.entries) {
      statements++;
      const ids = mappedPassages(e.text, corpus);
      if (ids.length) mappedStatements++;
      for (const id of ids) if (!ranked.includes(id)) ranked.push(id);
    }
    ours.push(ndcgAt(10, ranked, rels));
    const pages = base.query(question, Number.MAX_SAFE_INTEGER / 8, conditions).slice(0, 10);
    const bRanked: string[] = [];
    for (const pg of pages) {
      const pc = counts(overlapTokens(pg.text));
      const inPage = corpus
        .map((p) => ({ id: p.id, c: containment(p.tokens, pc) }))
        .filter((x) => x.c >= PAGE_PASSAGE_CONTAINMENT)
        .sort((a, b) => b.c - a.c);
      for (const x of inPage) if (!bRanked.includes(x.id)) bRanked.push(x.id);
    }
    baseline.push(ndcgAt(10, bRanked, rels));
  }
  const o = round(mean(ours));
  const b = round(mean(baseline));
  return {
    n: ours.length,
    config: 'research/medium, uncapped, caller filters AAPL FY-2022 10-K',
    ndcg_at_10: o,
    statements_mapped_to_passages: round(statements ? mappedStatements / statements : null),
    baseline: { ndcg_at_10: b, pages: 10 },
    ratio: ratio(o, b),
  };
}

// ---------------------------------------------------------------- FinQA (gold facts, own small corpus)

/** A gold fact (FinQA gold_inds row or sentence) is present when all its numbers are, or half its key terms. */
function factPresent(fact: string, evidenceNums: ReturnType<typeof numberIndex>, evidenceLower: string): boolean {
  const nums = extractNumbers(fact).filter((n) => !(n.decimals === 0 && n.value < 10));
  if (nums.length) return nums.every((n) => hasNumber(evidenceNums, n));
  const terms = keyTerms(fact);
  return terms.length > 0 && terms.filter((t) => evidenceLower.includes(t)).length / terms.length >= 0.5;
}

async function runFinqa(
  w: RunningWorker,
  cat: LoadedCatalog,
  records: ReturnType<typeof readFinqa>,
  where: Map<string, { docId: string; page: number }>,
) {
  const configs = [];
  for (const cap of [CAP, null]) {
    const allPresent: number[] = [];
    const fractions: number[] = [];
    const pageHit: number[] = [];
    for (const r of records) {
      const res = await ask(w, r.qa.question, 'research', 'medium', cap);
      const text = evidenceText(res.entries);
      const facts = Object.values(r.qa.gold_inds).filter((f) => f.trim().length > 3);
      const idx = numberIndex(text);
      const lower = text.toLowerCase();
      const present = facts.filter((f) => factPresent(f, idx, lower)).length;
      allPresent.push(facts.length && present === facts.length ? 1 : 0);
      fractions.push(facts.length ? present / facts.length : 0);
      const g = where.get(r.id)!;
      pageHit.push(returnedPages(res.entries, cat).has(`${g.docId}#${g.page}`) ? 1 : 0);
    }
    configs.push({
      mode: 'research',
      effort: 'medium',
      cap,
      all_gold_facts_present: round(mean(allPresent)),
      mean_gold_facts_present: round(mean(fractions)),
      gold_page_hit: round(mean(pageHit)),
    });
  }
  return {
    n: records.length,
    corpus: "the records' own pages, indexed as a separate corpus (bench/lib/finqa-corpus.ts)",
    configs,
  };
}

// ---------------------------------------------------------------- latency

function latencyTable() {
  const warm = sent.slice(1);
  return ALL_CONFIGS.map(({ mode, effort }) => {
    const rows = warm.filter((s) => s.mode === mode && s.effort === effort && s.status === 200);
    const worker = rows.map((s) => s.log?.ms).filter((x): x is number => typeof x === 'number');
    const hot = rows.filter((s) => s.log && s.log.shards_loaded === 0).map((s) => s.log!.ms);
    return {
      mode,
      effort,
      n: rows.length,
      worker_ms_p50: percentile(worker, 50),
      worker_ms_p95: percentile(worker, 95),
      client_ms_p50: round(
        percentile(
          rows.map((s) => s.clientMs),
          50,
        ),
        1,
      ),
      client_ms_p95: round(
        percentile(
          rows.map((s) => s.clientMs),
          95,
        ),
        1,
      ),
      share_loading_shards: round(rows.length ? 1 - hot.length / rows.length : null),
      hot_worker_ms_p50: percentile(hot, 50),
    };
  });
}

/**
 * Warm in the strict sense: each question asked twice in a row, the second ask timed, so everything it needs is in
 * the isolate (the table above cycles the 64 MiB cache over every set, and most of its requests load something).
 * Counts the second asks that read nothing from storage. These requests are left out of every other figure.
 */
async function askedTwice(questions: readonly string[]) {
  const before = sent.length;
  const rows = [];
  // Modes interleaved per question, the order rotating, so no mode runs on code another mode made hot first.
  const logsOf = new Map<Mode, WorkerLog[]>(MODES.map((m) => [m, []]));
  for (const [i, q] of questions.entries()) {
    for (let k = 0; k < MODES.length; k++) {
      const mode = MODES[(i + k) % MODES.length]!;
      await ask(current!.w, q, mode, 'medium', CAP);
      const second = await ask(current!.w, q, mode, 'medium', CAP);
      if (second.status === 200 && second.log) logsOf.get(mode)!.push(second.log);
    }
  }
  for (const mode of MODES) {
    const logs = logsOf.get(mode)!;
    const ms = logs.map((l) => l.ms);
    rows.push({
      mode,
      effort: 'medium',
      n: logs.length,
      worker_ms_p50: percentile(ms, 50),
      worker_ms_p95: percentile(ms, 95),
      read_nothing: logs.filter((l) => !l.storage_bytes).length,
    });
  }
  sent.splice(before);
  return rows;
}

async function coldQuery(persistDir: string, question: string, mode: Mode) {
  const w = await startWorker(ROOT, persistDir, PORT, INSPECTOR_PORT);
  current = { w, persistDir, restarts: 0 };
  try {
    const before = sent.length;
    const r = await ask(w, question, mode, 'medium', CAP);
    sent.splice(before, 1); // cold samples stay out of the warm figures
    return {
      mode,
      effort: 'medium',
      status: r.status,
      client_ms: round(r.clientMs, 1),
      worker_ms: r.log?.ms ?? null,
      shards_loaded: r.log?.shards_loaded ?? null,
      cache_bytes: r.log?.cache_bytes ?? null,
    };
  } finally {
    await w.stop();
  }
}

/** Gold-page hit and answer support per group of questions (a question may be in several), per mode at the cap. */
function groupScores(
  perQuestion: Record<string, Record<string, { hit: boolean; support: boolean }>>,
  groups: { id: string; groups: string[] }[],
  configs: string[],
): Record<string, Record<string, { n: number; gold_page_hit: number | null; answer_support: number | null }>> {
  const names = [...new Set(groups.flatMap((g) => g.groups))].sort();
  const out: Record<
    string,
    Record<string, { n: number; gold_page_hit: number | null; answer_support: number | null }>
  > = {};
  for (const name of names) {
    const ids = groups.filter((g) => g.groups.includes(name)).map((g) => g.id);
    out[name] = {};
    for (const config of configs) {
      const key = `${config}/${CAP}`;
      out[name][config] = {
        n: ids.length,
        gold_page_hit: round(mean(ids.map((id) => (perQuestion[id]![key]!.hit ? 1 : 0)))),
        answer_support: round(mean(ids.map((id) => (perQuestion[id]![key]!.support ? 1 : 0)))),
      };
    }
  }
  return out;
}

// ---------------------------------------------------------------- main

async function main() {
  const t0 = performance.now();
  const started = new Date().toISOString();
  const filingsDir = join(SHARED, 'corpus/filings');
  const stateDir = join(CACHE, 'state');
  const index = await ensureIndex(ROOT, filingsDir, join(CACHE, 'artifacts'), stateDir, log, !HALVES_ONLY);
  const cat = loadCatalog(index.versionDir);

  const pages = await readPages(join(filingsDir, 'pages.jsonl.gz'));
  const filingOf = filingKeys(readJsonl<CorpusDoc>(join(filingsDir, 'documents.jsonl')));
  log('tuning and check halves (and outside-check), in-process ...');
  const devQuestions = [...readDevQuestions(ROOT, SHARED, new PageStore(pages)), ...readOutsideCheck(SHARED)];
  const halves = summarizeHalves(
    devQuestions,
    await askHalves(openFileIndex(index.versionDir), cat, devQuestions, filingOf, log),
  );
  const tBuilt = performance.now();

  log('baseline: indexing every corpus page with MiniSearch ...');
  const base = new PageBm25Baseline(pages, cat.catalog);
  const baselineIndexSeconds = (performance.now() - tBuilt) / 1000;
  halves.answers = addBaseline(
    halves.answers ?? [],
    devQuestions,
    baselineAnswers(base, devQuestions, filingOf, halves.cap),
  );
  const halvesMarkdown = `${renderAnswers(halves.answers, HALF_MODES, halves.cap)}\n${renderHalves(halves)}`;
  if (HALVES_ONLY) {
    console.log(halvesMarkdown);
    return;
  }

  const fbRows = readJsonl<{
    id: string;
    question: string;
    question_type: string;
    answer: string;
    justification: string | null;
    evidence: { doc_id: string; page: number }[];
  }>(join(SHARED, 'bench/financebench-dev.jsonl'));
  const fb = fbRows.map((r) => ({
    id: r.id,
    question: r.question,
    answer: r.answer,
    justification: r.justification,
    gold: r.evidence.map((e) => ({ docId: e.doc_id, pages: [e.page] })),
  }));
  // Per question type: FinanceBench's own type, and the answer's form (a descriptive answer carries no figure).
  const fbGroups = fbRows.map((r) => ({
    id: r.id,
    groups: [`type: ${r.question_type}`, `answer: ${/\d/.test(r.answer) ? 'numeric' : 'descriptive'}`],
  }));
  const holdout = readProjectSet(join(ROOT, 'bench/dev-2/questions.jsonl'));
  // The blind set (bench/blind/README.md): reported, never tuned on.
  const blindFile = join(ROOT, 'bench/blind/questions.jsonl');
  const blind = existsSync(blindFile) ? readProjectSet(blindFile) : [];
  const docugami = readJsonl<DocugamiRow>(join(SHARED, 'bench/docugami-10q-dev.jsonl'));

  // Cold first queries: a fresh wrangler dev (new isolate, empty cache, artifacts read from local R2) per sample.
  log('cold first queries ...');
  const cold = [];
  for (const mode of MODES) cold.push(await coldQuery(stateDir, fb[0]!.question, mode));

  const w = await startWorker(ROOT, stateDir, PORT, INSPECTOR_PORT);
  current = { w, persistDir: stateDir, restarts: 0 };
  let results: Record<string, unknown>;
  try {
    log(`FinanceBench dev (${fb.length} questions x ${ALL_CONFIGS.length} configs x 2 caps) ...`);
    const financebench = await runPageSet(w, cat, base, fb, 'financebench');
    const fbByType = groupScores(financebench.per_question, fbGroups, ['basic/medium', 'research/medium']);
    log(`dev-2 (${holdout.length} questions) ...`);
    const hold = await runPageSet(w, cat, base, holdout, 'dev-2');
    const holdByKind = scoresByKind(holdout, hold.per_question);
    log(`blind (${blind.length} questions) ...`);
    const blindRun = blind.length ? await runPageSet(w, cat, base, blind, 'blind') : null;
    log(`docugami 10-Q dev (${docugami.length}) ...`);
    const dg = await runDocugami(w, base, docugami);
    log('FinQABench ...');
    const fqb = await runFinqabench(w, base);
    const lastLog = [...current.w.logs.values()].at(-1);
    const maxCache = Math.max(...sent.map((x) => x.log?.cache_bytes ?? 0));
    const latency = latencyTable();
    const requests = sent.length;
    const non200 = sent.filter((s) => s.status !== 200).length;
    const restarts = current.restarts;
    // FinanceBench dev, dev-2 and the first 40 docugami questions: the three kinds of dev question, not the blind set.
    log('warm, asked twice ...');
    const warmTwice = await askedTwice([
      ...fb.map((q) => q.question),
      ...holdout.map((q) => q.question),
      ...docugami.slice(0, 40).map((q) => q.question),
    ]);
    await current.w.stop();

    log('FinQA: its own pages as a second small index ...');
    const finqaRecords = readFinqa(join(SHARED, 'bench/finqa-sample-dev.jsonl'));
    const finqaDir = join(CACHE, 'finqa-filings');
    const where = writeFinqaCorpus(finqaRecords, join(SHARED, 'corpus/reference/sp500-constituents.csv'), finqaDir);
    const finqaState = join(CACHE, 'finqa-state');
    const finqaIndex = await ensureIndex(ROOT, finqaDir, join(CACHE, 'finqa-artifacts'), finqaState, log);
    const fw = await startWorker(ROOT, finqaState, PORT, INSPECTOR_PORT);
    current = { w: fw, persistDir: finqaState, restarts: 0 };
    let finqa: Awaited<ReturnType<typeof runFinqa>>;
    try {
      finqa = await runFinqa(fw, loadCatalog(finqaIndex.versionDir), finqaRecords, where);
    } finally {
      await current.w.stop();
    }

    results = {
      started,
      seconds: round((performance.now() - t0) / 1000, 1),
      machine: { cpus: cpus().length, loadavg_at_end: loadavg().map((x) => round(x, 2)), node: process.version },
      halves,
      index: {
        version: index.build.version,
        reused: index.reused,
        build_seconds: round(index.build.seconds, 1),
        build_peak_rss_mb: round(index.build.peak_rss_mb, 0),
        built_at: index.build.built_at,
        statements: cat.manifest.totals.statements,
        artifact_bytes: cat.manifest.totals.bytes,
        shards: cat.catalog.shards.length,
      },
      baseline: {
        library: 'minisearch 7.2.0 (BM25+)',
        unit: 'corpus page',
        pages: pages.length,
        index_seconds: round(baselineIndexSeconds, 1),
      },
      financebench: { ...financebench, per_question: undefined, by_type_capped: fbByType },
      holdout: { ...hold, per_question: undefined, by_kind_research_medium_capped: holdByKind },
      ...(blindRun
        ? {
            blind: {
              ...blindRun,
              per_question: undefined,
              by_kind_research_medium_capped: scoresByKind(blind, blindRun.per_question),
            },
          }
        : {}),
      docugami: dg,
      finqabench: fqb,
      finqa,
      latency: {
        cold_first_query: cold,
        warm: latency,
        warm_asked_twice: warmTwice,
        requests,
        non_200: non200,
        worker_restarts: restarts,
        stale_connection_retries: staleConnectionRetries,
        transport_errors: transportErrors,
      },
      cache: { bytes_after_run: lastLog?.cache_bytes ?? null, max_bytes_seen: maxCache, budget_bytes: 67108864 },
      per_question: {
        financebench: financebench.per_question,
        holdout: hold.per_question,
        ...(blindRun ? { blind: blindRun.per_question } : {}),
      },
    };
  } catch (err) {
    await current?.w.stop();
    throw err;
  }
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  const markdown = `${halvesMarkdown}\n${renderMarkdown(results as never, CAP)}`;
  const header = [
    '<!-- Written by `npm run bench` (bench/run.ts); every run overwrites it. Do not edit: history is in git. -->',
    '',
    `# Benchmark results (${started.slice(0, 10)}, index ${index.build.version})`,
    '',
    '',
  ].join('\n');
  writeFileSync(RESULTS_MD, `${header}${markdown}\n`);
  console.log(markdown);
  log(`\nwrote ${OUT} and ${RESULTS_MD}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});

export type { BaselineHit };
