/**
 * The two answer metrics of ../shared/bench/README.md ("outside-check"), computed per question from a response's
 * evidence, for our entries and the page baseline alike:
 *   answering passage  for at least one gold entry, at least PASSAGE_SHARE of the distinct content words of its
 *                      evidence_text are among the content words of the evidence pieces whose sources include that
 *                      gold filing (same ticker, fiscal year, form and, for a 10-Q, quarter);
 *   answer key         every key figure occurs as a number in the evidence text and every key term occurs in it.
 * Content words: lower-cased words of 3+ letters and numbers, English stop words removed. Numbers are compared
 * without "$", ",", "(", ")", "%", a sign, and trailing zeros after a decimal point. Terms: case-insensitive,
 * whitespace collapsed, curly quotes straightened. A question without the gold a metric needs scores null.
 */

/** A gold entry's passage share the response must cover (the README's 60%). */
export const PASSAGE_SHARE = 0.6;

/** English function words (pronouns, determiners, auxiliaries, prepositions, conjunctions) of 3+ letters. */
const STOP_WORDS = new Set(
  `the and for are but not you all any can had her was one our out his has him how its may who did get let put say
  she too use that with have this will your from they been were said each which their what there when them would
  these than then into some could other more only also over such most both very just where while those after
  before above below between through during under again further once here why own same few nor off until about
  against because being does doing having itself himself herself themselves ourselves yourself yourselves theirs
  ours yours whom should shall might must upon within without across among onto per via whether either neither
  yet ever every anyone something nothing`.split(/\s+/),
);

/** A number as the metrics compare it: no "$", ",", "(", ")", "%", sign or space; no trailing decimal zeros. */
export function normalizeFigure(raw: string): string {
  let s = raw.replace(/[$,()%\s+\u2212-]/g, '');
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

/** Numbers as printed: "1,577", "(412)", "$8.70", "65.4%", "FY2019" (2019); never the tail of another number. */
const NUMBER = /(?<![\d.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)/gu;

/** Every number of a text, normalized (normalizeFigure). */
export function figuresIn(text: string): Set<string> {
  return new Set([...text.matchAll(NUMBER)].map((m) => normalizeFigure(m[0])));
}

/** The distinct content words of a text: lower-cased words of 3+ letters and numbers, stop words removed. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/\p{L}+|(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/gu)) {
    const w = m[0];
    if (/^\d/.test(w)) out.add(normalizeFigure(w));
    else if (w.length >= 3 && !STOP_WORDS.has(w)) out.add(w);
  }
  return out;
}

/** Text as key terms are matched in it: lower-case, whitespace collapsed, curly quotes straightened. */
export function termText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201f\u2033]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A question's answer key: the figures that are the answer and, for descriptive answers, the phrases it contains. */
export interface AnswerKeyGold {
  figures: readonly string[];
  terms: readonly string[];
}

/** Every key figure as a number in the evidence and every key term in it; null when the key is empty. */
export function answerKey(gold: AnswerKeyGold, evidenceText: string): boolean | null {
  if (!gold.figures.length && !gold.terms.length) return null;
  const figures = figuresIn(evidenceText);
  if (!gold.figures.every((f) => figures.has(normalizeFigure(f)))) return false;
  const text = termText(evidenceText);
  return gold.terms.every((t) => text.includes(termText(t)));
}

/** A gold entry: the filing it is on (filingKey) and the answering sentences or rows. */
export interface GoldPassage {
  filing: string;
  text: string;
}

/** A piece of returned evidence (one of our entries, one baseline page): the filings it cites and its text. */
export interface EvidencePiece {
  filings: readonly string[];
  text: string;
}

/** The share of a gold passage's content words among those of the pieces citing its filing (0 when it has none). */
export function passageCoverage(gold: GoldPassage, pieces: readonly EvidencePiece[]): number {
  const want = contentWords(gold.text);
  if (!want.size) return 0;
  const have = new Set<string>();
  for (const p of pieces) if (p.filings.includes(gold.filing)) for (const w of contentWords(p.text)) have.add(w);
  let found = 0;
  for (const w of want) if (have.has(w)) found++;
  return found / want.size;
}

/** At least one gold passage covered to PASSAGE_SHARE by the pieces citing its filing; null without gold passages. */
export function answeringPassage(golds: readonly GoldPassage[], pieces: readonly EvidencePiece[]): boolean | null {
  const usable = golds.filter((g) => contentWords(g.text).size > 0);
  if (!usable.length) return null;
  return usable.some((g) => passageCoverage(g, pieces) >= PASSAGE_SHARE);
}

/** What makes two documents one filing for the passage metric: ticker, fiscal year, form and a 10-Q's quarter. */
export function filingKey(doc: {
  ticker: string;
  fiscal_year: number | string;
  form_type: string;
  fiscal_period: string;
}): string {
  const quarter = doc.form_type === '10-Q' ? doc.fiscal_period : '';
  return `${doc.ticker}|${doc.fiscal_year}|${doc.form_type}|${quarter}`;
}
