/**
 * Quality floor: gold-page hit rate of research and basic mode (medium effort, 4,000-token cap) on a fixed subset of
 * FinanceBench dev questions, over an index built by the real builder from only the filings those questions need,
 * queried through the pure core (the same runQuery the Worker runs; exact vector scans, no HNSW graphs, and
 * corpus statistics of these filings only, so the figure is close to, not equal to, npm run bench's).
 * Skipped when the shared data (../shared, or SHARED_DIR) is absent. bench/README.md "Quality floor" documents
 * the floor.
 */
import { openFileIndex } from '../support/file-index';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askInProcess } from '../../bench/lib/ask';
import { answerSupport } from '../../bench/lib/score';
import type { IndexReader } from '../../index-format/index-reader';
import { runQuery } from '../../src/core/run-query';
import { ResearchRequest } from '../../src/schema/request';
import { normalizeQuery } from '../../index-format/normalize';
import { buildSubsetIndex, readJsonlFile, SHARED, sharedFilingsAvailable } from '../support/shared-subset';

const FB = join(SHARED, 'bench/financebench-dev.jsonl');
const AVAILABLE = existsSync(FB) && sharedFilingsAvailable();
if (!AVAILABLE) console.warn(`quality floor SKIPPED: no shared data at ${SHARED} (set SHARED_DIR)`);

/** The fixed subset: every dev question about these filings (chosen for a mix of kinds and a small build). */
const FILINGS_IN_SUBSET = [
  '3M_2018_10K',
  '3M_2022_10K',
  'ADOBE_2017_10K',
  'AMCOR_2023_10K',
  'BOEING_2022_10K',
  'PEPSICO_2022_10K',
  'NIKE_2019_10K',
  'VERIZON_2022_10K',
];

/**
 * The floors, slightly under what the system reached when they were set, so losing one hit or one supported answer
 * fails: gold-page hit 12 of these 15 questions (0.800) until 2026-11-27 and answer support 9 of 15 (0.600; 8 until a
 * question's "gross margin" was read as the percentage, which gained AMCOR's gross-margin profile), 2026-11-26.
 * Gold-page hit was 13 of 15 from 2026-11-21: preferring the rows of a statement the question names (docs/PARAMETERS.md
 * "financial-statement rows") loses Verizon's debt "on balance sheet", whose gold page is the debt note, on this
 * small index, while the same change gains 4 of the 63 full dev questions (that one a miss there before and after).
 * 11 of 15 from 2026-11-27: the one score scale (normalised fusion, docs/DECISIONS.md "One ranking object, one score
 * scale") gains 3 questions on the check half of the full dev sets in research and in basic, but on this small index
 * PepsiCo's restructuring-costs row (gold page 77) falls out of the budget; its answer is still supported (page 78).
 * 12 of 15 and 10 of 15 from 2026-11-29, after five extraction fixes (EXTRACTION_VERSION 22-26, docs/DECISIONS.md
 * "Table facts, period keys and provenance"). This index learns its word vectors from its 8 filings, so what the
 * builder reads from them moves it by itself: the column groups (23) took it to 10 and 8 of 15, and built with the
 * model of the index before them every question answered as before. Answer support 9 of 15 from 2026-11-29 again:
 * the fair-value levels as column headings (EXTRACTION_VERSION 33) took it from 11 to 9 in both modes through this
 * index's relearned model; built with the model of the index before them, all 30 answers were the same.
 * Gold-page hit 11 of 15 in both modes from 2026-11-29: one month-day per span (EXTRACTION_VERSION 41) dates 17 of
 * Verizon's rows, and this index's relearned model loses PepsiCo's restructuring-costs page (its answer is still
 * supported); built with the model of the index before it, all 30 answers were the same. The fix removes false
 * disagreements between quarters, so the floor moved rather than the fix.
 * Raise them when retrieval improves (the test prints the current figures); bench/RESULTS.md has the full-corpus
 * figures.
 */
const GOLD_PAGE_HIT_FLOOR = 0.7;
const ANSWER_SUPPORT_FLOOR = 0.6;
/** Basic mode on the same questions (routing by the company and year the question names). */
const BASIC_GOLD_PAGE_HIT_FLOOR = 0.7; // 11 of 15 on 2026-11-29, after EXTRACTION_VERSION 41
const BASIC_ANSWER_SUPPORT_FLOOR = 0.6; // 9 of 15 on 2026-11-29, after EXTRACTION_VERSION 33

interface FbRow {
  id: string;
  question: string;
  answer: string;
  justification: string | null;
  doc_id: string;
  evidence: { doc_id: string; page: number }[];
}

describe.skipIf(!AVAILABLE)('quality floor on FinanceBench dev (research and basic, medium, 4,000 tokens)', () => {
  let reader: IndexReader;
  let dir = '';
  let dispose = () => {};
  let questions: FbRow[];

  beforeAll(async () => {
    questions = readJsonlFile<FbRow>(FB).filter((q) => FILINGS_IN_SUBSET.includes(q.doc_id));
    ({ reader, dir, dispose } = await buildSubsetIndex(FILINGS_IN_SUBSET));
  }, 120_000);

  afterAll(() => dispose());

  /** Gold-page hit and answer support of one mode over the subset, printed for whoever raises the floors. */
  async function measure(mode: 'research' | 'basic') {
    expect(questions.length).toBeGreaterThanOrEqual(10);
    const docOf = new Map(
      (await reader.scope(reader.directory.companies.map((c) => c.ticker))).sources.map((s) => [s.id, s.doc_id]),
    );
    const misses: string[] = [];
    let hits = 0;
    let supported = 0;
    for (const q of questions) {
      const { entries } = await askInProcess(reader, { query: q.question, mode, cap: 4000 });
      const returned = new Set(entries.flatMap((e) => e.occurrences.map((o) => `${docOf.get(o.sourceId)}#${o.page}`)));
      const text = entries.map((e) => e.text).join('\n');
      if (answerSupport({ answer: q.answer, justification: q.justification, question: q.question }, text).supported)
        supported++;
      if (q.evidence.some((g) => returned.has(`${g.doc_id}#${g.page}`))) hits++;
      else misses.push(q.id);
    }
    const rate = hits / questions.length;
    const support = supported / questions.length;
    console.log(
      `quality floor (${mode}): gold-page hit ${hits}/${questions.length} = ${rate.toFixed(3)}; misses: ` +
        `${misses.join(', ')}`,
    );
    console.log(`quality floor (${mode}): answer support ${supported}/${questions.length} = ${support.toFixed(3)}`);
    return { rate, support };
  }

  it(`research: gold-page hit rate stays at or above ${GOLD_PAGE_HIT_FLOOR}, answer support at or above \
${ANSWER_SUPPORT_FLOOR}`, async () => {
    const { rate, support } = await measure('research');
    expect(rate).toBeGreaterThanOrEqual(GOLD_PAGE_HIT_FLOOR);
    expect(support).toBeGreaterThanOrEqual(ANSWER_SUPPORT_FLOOR);
  });

  it(`basic (the default mode): gold-page hit rate stays at or above ${BASIC_GOLD_PAGE_HIT_FLOOR}, answer support at \
or above ${BASIC_ANSWER_SUPPORT_FLOOR}`, async () => {
    const { rate, support } = await measure('basic');
    expect(rate).toBeGreaterThanOrEqual(BASIC_GOLD_PAGE_HIT_FLOOR);
    expect(support).toBeGreaterThanOrEqual(BASIC_ANSWER_SUPPORT_FLOOR);
  });

  it('range reads give the responses whole-shard reads give, on real filings, every mode (the slow twin)', async () => {
    for (const mode of ['research', 'basic', 'agentic_research'] as const) {
      for (const q of questions) {
        const req = ResearchRequest.parse({ query: q.question, mode, retrieval: { max_evidence_tokens: 4000 } });
        const valid = { ...req, normalizedQuery: normalizeQuery(req.query) };
        // Cold readers each time, so the range reader starts from shard heads only.
        const ranges = await runQuery(openFileIndex(dir), valid);
        const whole = await runQuery(openFileIndex(dir, { shardReads: 'whole' }), valid);
        expect(JSON.stringify(ranges.body), `${mode}: ${q.id}`).toBe(JSON.stringify(whole.body));
      }
    }
  });

  it('indexes the cover pages: the registered securities are evidence, under their own item tag', async () => {
    const catalog = await reader.scope(['MMM']);
    const cover = catalog.sources.filter((s) => s.doc_id === '3M_2022_10K' && s.meta.sec_item_tag === '10K-Item-Cover');
    expect(cover.length).toBe(1);
    for (const mode of ['basic', 'research'] as const) {
      const { entries } = await askInProcess(reader, {
        query: 'Which notes does 3M have registered on a stock exchange under Section 12(b)?',
        mode,
        cap: 4000,
      });
      const fromCover = entries.filter((e) => e.occurrences.some((o) => o.sourceId === cover[0]!.id));
      expect(fromCover.map((e) => e.text).join('\n'), mode).toMatch(
        new RegExp(
          String.raw`Securities registered pursuant to Section 12\(b\)` +
            String.raw` of the Act: [\d.]+% Notes due \d{4} \| MMM\d+ \| New York Stock Exchange`,
        ),
      );
    }
  });

  it(`finds the statements a 10-K prints after its MD&A under an Item 8 filter (Item 8 only says "See Item \
15")`, async () => {
    const catalog = await reader.scope(['PEP']);
    const item8 = catalog.sources.filter(
      (s) => s.doc_id === 'PEPSICO_2022_10K' && s.meta.sec_item_tag === '10K-Item-8',
    );
    expect(item8.length).toBe(2); // the pointer and the statements cut from Item 7
    const filters = { sec_ticker: 'PEP', sec_item_tag: '10K-Item-8', sec_fiscal_year: 'FY-2022' };
    const { entries } = await askInProcess(reader, {
      query: 'PepsiCo total assets on the consolidated balance sheet',
      mode: 'research',
      cap: 4000,
      filters,
    });
    const ids = new Set(item8.map((s) => s.id));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.occurrences.some((o) => ids.has(o.sourceId)))).toBe(true);
    expect(entries.map((e) => e.text).join('\n')).toMatch(/Total Assets: 92,187 for FY2022/i);
  });

  it(`follows an Item 3 that points at a note: the chain its pointer anchors shows the note’s legal \
proceedings`, async () => {
    const catalog = await reader.scope(['MMM']);
    const item = (tag: string) =>
      catalog.sources.find((s) => s.doc_id === '3M_2022_10K' && s.meta.sec_item_tag === tag)!.id;
    const [pointer, notes] = [item('10K-Item-3'), item('10K-Item-8')];
    for (const mode of ['basic', 'research'] as const) {
      const { entries } = await askInProcess(reader, {
        query: 'What legal matters is 3M involved in?',
        mode,
        cap: 4000,
      });
      const chain = entries.find((e) => e.occurrences.some((o) => o.sourceId === pointer))?.chain;
      expect(chain, `${mode}: a chain anchored at Item 3`).toBeDefined();
      const rest = entries.filter((e) => e.chain === chain && e.occurrences.some((o) => o.sourceId === notes));
      expect(rest.map((e) => e.text).join('\n'), mode).toMatch(/claims and lawsuits/);
    }
  });
});
