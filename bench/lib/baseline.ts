/**
 * The baseline: page-level BM25 with MiniSearch (7.2.0, its BM25+ scoring with default parameters), one document
 * per corpus page. The same company/period/form filters as research mode, derived by the project's own rules
 * (src/filters/infer.ts) and applied by its own matcher (src/filters/match.ts) to the catalog sources covering a
 * page; the same budget: the best pages in order, each cut so that the total stays within cap * 4 characters
 * (the service's chars_div_4_v1 estimator).
 */
import MiniSearch from 'minisearch';
import { analyzeQuestion } from '../../src/question/analyze';
import { inferFilters } from '../../src/filters/infer';
import { matchesConditions } from '../../src/filters/match';
import type { Condition } from '../../src/filters/parse';
import type { CatalogHeader, CatalogSource } from '../../index-format/types';

export interface CorpusPage {
  docId: string;
  page: number;
  text: string;
}

export interface BaselineHit {
  docId: string;
  page: number;
  /** The page text as returned (cut at the budget for the last page). */
  text: string;
}

/** A small English stop list: question words would otherwise dominate OR-queries of long questions. */
const STOP = new Set(
  (
    'a an and are as at be by can did do does for from has have how if in into is it its of on or per than ' +
    'that the their this to was were what when which who why will with would you your'
  ).split(' '),
);

export class PageBm25Baseline {
  private readonly search: MiniSearch<{ id: number; text: string }>;
  private readonly sourcesByDoc = new Map<string, CatalogSource[]>();

  constructor(
    private readonly pages: readonly CorpusPage[],
    private readonly catalog: CatalogHeader,
  ) {
    this.search = new MiniSearch({
      fields: ['text'],
      processTerm: (t) => {
        const lower = t.toLowerCase();
        return STOP.has(lower) ? null : lower;
      },
    });
    this.search.addAll(pages.map((p, id) => ({ id, text: p.text })));
    for (const s of catalog.sources) {
      const list = this.sourcesByDoc.get(s.doc_id) ?? [];
      list.push(s);
      this.sourcesByDoc.set(s.doc_id, list);
    }
  }

  /** A page passes when a source (filing item) covering it passes; pages outside every item use the filing's. */
  private pagePasses(p: CorpusPage, conditions: readonly Condition[]): boolean {
    const sources = this.sourcesByDoc.get(p.docId) ?? [];
    const covering = sources.filter((s) => s.page_start <= p.page && p.page <= s.page_end);
    const candidates = covering.length
      ? covering
      : sources.map((s) => ({ ...s, meta: { ...s.meta, sec_item_tag: null } }));
    return candidates.some((s) => matchesConditions(s.meta, conditions));
  }

  conditionsFor(question: string, callerConditions: readonly Condition[] = []): Condition[] {
    return [
      ...callerConditions,
      ...inferFilters(analyzeQuestion(question, this.catalog), this.catalog, callerConditions).conditions,
    ];
  }

  query(question: string, tokenCap: number, conditions: readonly Condition[]): BaselineHit[] {
    const results = this.search.search(question, {
      filter: (r) => conditions.length === 0 || this.pagePasses(this.pages[r.id as number]!, conditions),
    });
    let chars = tokenCap * 4;
    const hits: BaselineHit[] = [];
    for (const r of results) {
      if (chars <= 0) break;
      const p = this.pages[r.id as number]!;
      const text = p.text.slice(0, chars);
      chars -= text.length;
      hits.push({ docId: p.docId, page: p.page, text });
    }
    return hits;
  }
}
