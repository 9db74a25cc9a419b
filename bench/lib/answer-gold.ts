/**
 * The gold the answer metrics (bench/lib/answer-metrics.ts) read, per question set.
 *
 * outside-check   as written: each evidence entry's evidence_text is a gold passage; key_figures and key_terms are
 *                 the answer key.
 * FinanceBench    a gold passage is an evidence_text that is a passage, not its whole page (under
 *                 PASSAGE_OF_PAGE of the page's text: about half of them are the page); the answer key is the
 *                 answer's figures that the gold evidence prints (a computed answer, "24.3%", is in no filing: only
 *                 its printed figures are asked for; an answer with none has no key).
 * dev-2           no passages (page gold only); the key is the answer's figures printed on a gold page, and for an
 *                 answer listing phrases ("North America; Greater China"), those of them printed on a gold page.
 * docugami        no passages; the key is the answer's figures printed in the filings the answer cites.
 * dev-3 to dev-5  as outside-check, each passage read from the corpus page span its gold names.
 * Derived figures leave out what the answer metric cannot hold to: years, days of dates and form names
 * (extractNumbers' noise) and integers under 10 (list numbers and counts that any page prints).
 */
import { filingKey, figuresIn, termText, type AnswerKeyGold, type GoldPassage } from './answer-metrics';
import { extractNumbers } from './score';

/** A FinanceBench evidence_text is a passage when it is shorter than this share of its page's text. */
export const PASSAGE_OF_PAGE = 0.5;

export interface AnswerGold {
  key: AnswerKeyGold | null;
  passages: GoldPassage[];
}

export const NO_ANSWER_GOLD: AnswerGold = { key: null, passages: [] };

/** A corpus document as documents.jsonl gives it: what filingKey reads. */
export interface CorpusDoc {
  doc_id: string;
  ticker: string;
  fiscal_year: number;
  form_type: string;
  fiscal_period: string;
}

/** doc_id -> filing key (bench/lib/answer-metrics.ts filingKey) for every corpus document. */
export function filingKeys(docs: readonly CorpusDoc[]): Map<string, string> {
  return new Map(docs.map((d) => [d.doc_id, filingKey(d)]));
}

const collapsed = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The answer's figures (noise and integers under 10 left out) that the gold text prints, normalized. */
export function printedFigures(answer: string, goldText: string): string[] {
  const printed = figuresIn(goldText);
  const out = new Set<string>();
  for (const n of extractNumbers(answer)) {
    if (n.decimals === 0 && n.value < 10) continue;
    if (printed.has(n.raw)) out.add(n.raw);
  }
  return [...out];
}

/** The phrases of an answer that lists them ("a; b; c"), lower-cased, that the gold text prints; none otherwise. */
export function printedTerms(answer: string, goldText: string): string[] {
  const parts = answer.split(';').map((p) => termText(p).replace(/[.\s]+$/, ''));
  if (parts.length < 2) return [];
  const gold = termText(goldText);
  return parts.filter((p) => p.length >= 3 && gold.includes(p));
}

function keyOf(figures: string[], terms: string[]): AnswerKeyGold | null {
  return figures.length || terms.length ? { figures, terms } : null;
}

/** outside-check: its own fields. */
export function outsideCheckGold(
  row: { evidence: { doc_id: string; evidence_text: string }[]; key_figures?: string[]; key_terms?: string[] },
  filingOf: ReadonlyMap<string, string>,
): AnswerGold {
  return {
    key: keyOf([...(row.key_figures ?? [])], [...(row.key_terms ?? [])]),
    passages: row.evidence.map((e) => ({ filing: filingOf.get(e.doc_id) ?? e.doc_id, text: e.evidence_text })),
  };
}

/** FinanceBench: passage-level evidence_texts, and the answer's figures the evidence prints. */
export function financeBenchGold(
  row: { answer: string; evidence: { doc_id: string; page: number; evidence_text: string }[] },
  filingOf: ReadonlyMap<string, string>,
  pageText: (docId: string, page: number) => string | undefined,
): AnswerGold {
  const passages = row.evidence
    .filter((e) => {
      const page = pageText(e.doc_id, e.page);
      return page !== undefined && collapsed(e.evidence_text).length < PASSAGE_OF_PAGE * collapsed(page).length;
    })
    .map((e) => ({ filing: filingOf.get(e.doc_id) ?? e.doc_id, text: e.evidence_text }));
  const evidence = row.evidence.map((e) => e.evidence_text).join('\n');
  return { key: keyOf(printedFigures(row.answer, evidence), []), passages };
}

/** dev-2 and docugami: no passages; the answer's figures (and listed phrases) the gold text prints. */
export function printedKeyGold(answer: string, goldText: string, withTerms: boolean): AnswerGold {
  return {
    key: keyOf(printedFigures(answer, goldText), withTerms ? printedTerms(answer, goldText) : []),
    passages: [],
  };
}
