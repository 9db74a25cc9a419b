/**
 * Scores, defined once for our responses and the baseline alike (bench/README.md "Scores" explains them).
 */

/** Years and formula constants say nothing about whether the right figure was found. */
function isNoiseNumber(value: number, raw: string): boolean {
  if (/^(19|20)\d{2}$/.test(raw) && value >= 1990 && value <= 2035) return true;
  return false;
}

export interface ParsedNumber {
  value: number;
  /** Decimal places that carry information (trailing zeros dropped: "$8.70" -> 1). */
  decimals: number;
  raw: string;
}

/** Form names ("10-Q", "Form 10-K", "10-Qs", "8-K"): the "10" in them names a filing, it is no figure. */
const FORM_NAME = /(?<![\p{L}\d.])(?:8|10)-?[KQ]s?\b/giu;
/** The day of a date ("September 30, 2023", "Oct. 29"): it names a period end, it is no figure. */
const DATE_DAY = new RegExp(
  String.raw`\b((?:January|February|March|April|May|June|July|August|September|October|November|December|Jan` +
    String.raw`|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?)\s+\d{1,2}(?:st|nd|rd|th)?\b`,
  'gi',
);

/**
 * Numbers in text: "1,577", "(1,577)", "$8.70", "65.4%", "-0.5". Signs are ignored (parentheses vs minus). With
 * `dropNoise` (an answer's numbers), years, days of dates and the numbers of form names are left out: "no changes
 * in the 10-Q for the quarter ended September 30, 2023" asks the evidence for no figure, and every 10-Q says "Form
 * 10-Q" and "September 30".
 */
export function extractNumbers(text: string, dropNoise = true): ParsedNumber[] {
  const out: ParsedNumber[] = [];
  for (const m of (dropNoise ? text.replace(FORM_NAME, ' ').replace(DATE_DAY, '$1') : text).matchAll(
    /(?<![\p{L}\d.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d])/gu,
  )) {
    const intPart = m[1]!.replace(/,/g, '');
    const frac = (m[2] ?? '').replace(/0+$/, '');
    const raw = intPart + (frac === '.' ? '' : frac);
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    if (dropNoise && isNoiseNumber(value, m[1]!)) continue;
    out.push({ value, decimals: frac.length > 1 ? frac.length - 1 : 0, raw });
  }
  return out;
}

/**
 * Does the evidence state this number? An evidence number x matches target t when x, or x scaled by 1e3 / 1e-3
 * (thousands vs millions vs billions), rounds to t at t's precision. Small integers (< 10) only match exactly,
 * since every table is full of them.
 */
export function numberIndex(evidenceText: string): ParsedNumber[] {
  return extractNumbers(evidenceText, false);
}

export function hasNumber(index: readonly ParsedNumber[], t: ParsedNumber): boolean {
  const f = 10 ** t.decimals;
  for (const x of index) {
    if (t.decimals === 0 && t.value < 10) {
      if (x.value === t.value) return true;
      continue;
    }
    for (const s of [1, 1e-3, 1e3]) {
      if (Math.round(x.value * s * f) === Math.round(t.value * f) && (s === 1 || x.value * s >= 1)) return true;
    }
  }
  return false;
}

const STOP = new Set(
  `about above after again against also among amount an and any are around as at based be because been before being
  below between both but by can company company's could did does doing down during each either few for from further
  had has have having here how however into its itself just more most much must nor not now off once only other our
  out over own same shall should since some such than that the their theirs them then there these they this those
  through under until upon very was were what when where which while whom whose will with within would year years
  yes fiscal total primarily mainly following includes including included source sources`.split(/\s+/),
);

/** Content words of at least four letters, lower-cased, stop words removed. */
export function keyTerms(text: string): string[] {
  return [
    ...new Set(
      (text.toLowerCase().match(/[a-z][a-z&'-]{3,}/g) ?? [])
        .map((w) => w.replace(/'s$/, ''))
        .filter((w) => !STOP.has(w)),
    ),
  ];
}

export interface SupportInput {
  answer: string;
  /** FinanceBench's justification: for computed answers it often lists the inputs ("2725/14694"). */
  justification?: string | null;
  question: string;
}

export interface SupportResult {
  supported: boolean;
  /** Which rule decided: answer numbers, the justification's named line items or input numbers, or key terms. */
  by: 'answer_numbers' | 'line_items' | 'input_numbers' | 'key_terms' | 'none';
  fraction: number;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[’‘]/g, "'");
}

/** Row labels a FinanceBench justification names ("... as a single line item named: Total current liabilities."). */
export function namedLineItems(justification: string): string[] {
  // Some non-breaking spaces arrive double-encoded ("Â" + U+00A0); note references are not label text.
  return [...justification.matchAll(/line item named:?\s*([^\n]+?)\.?\s*(?:\n|$)/gi)]
    .map((m) =>
      normalizeSpace(
        m[1]!
          .replace(/\u00c2?\u00a0/g, ' ')
          .replace(/\s*\(note \d+\)/gi, '')
          .trim()
          .toLowerCase(),
      ),
    )
    .filter(Boolean);
}

/**
 * The justification without labels that are not figures: "Metric 2" and the form name "10K" were read as the
 * inputs 2 and 10, which any page of numbers contains (that inflated the page baseline's support).
 */
function justificationFigures(justification: string): string {
  return justification.replace(/\bMetric\s+\d+\b/gi, ' ').replace(/\b10-?[KQ]\b/gi, ' ');
}

/** Key-term rule: at least this share of the answer's key terms (those not already in the question). */
export const KEY_TERM_THRESHOLD = 0.5;

/**
 * Answer support: (1) every number of the answer (years, days of dates and form names dropped) is in the evidence;
 * else (2) the answer is computed and the justification names its input rows ("line item named: ...") and every one
 * of them is in the evidence, or it gives a formula and every number of it (at least two; the constants 0, 1 and
 * 100, "Metric N" and "10K" dropped) is; else (3) for answers without numbers, at least half of the answer's key
 * terms not already in the question.
 */
export function answerSupport(input: SupportInput, evidenceText: string): SupportResult {
  const idx = numberIndex(evidenceText);
  const answerNums = extractNumbers(input.answer);
  if (answerNums.length) {
    const found = answerNums.filter((n) => hasNumber(idx, n)).length;
    if (found === answerNums.length) return { supported: true, by: 'answer_numbers', fraction: 1 };
    const items = namedLineItems(input.justification ?? '');
    if (items.length) {
      // "Metric 1: ... located in the 10K as a single line item named: Cost of products sold": the inputs are rows,
      // found when every named row label is in the evidence (the justification gives no figures to look for).
      const lower = normalizeSpace(evidenceText.toLowerCase());
      const inFound = items.filter((l) => lower.includes(l)).length;
      return { supported: inFound === items.length, by: 'line_items', fraction: inFound / items.length };
    }
    const inputs = extractNumbers(justificationFigures(input.justification ?? '')).filter(
      (n) => !(n.decimals === 0 && (n.value <= 1 || n.value === 100)),
    );
    if (inputs.length >= 2) {
      const inFound = inputs.filter((n) => hasNumber(idx, n)).length;
      if (inFound === inputs.length) return { supported: true, by: 'input_numbers', fraction: 1 };
      return {
        supported: false,
        by: 'input_numbers',
        fraction: Math.max(found / answerNums.length, inFound / inputs.length),
      };
    }
    return { supported: false, by: 'answer_numbers', fraction: found / answerNums.length };
  }
  const qTerms = new Set(keyTerms(input.question));
  let terms = keyTerms(input.answer).filter((t) => !qTerms.has(t));
  if (!terms.length) terms = keyTerms(input.answer);
  if (!terms.length) return { supported: false, by: 'none', fraction: 0 };
  const lower = evidenceText.toLowerCase();
  const fraction = terms.filter((t) => lower.includes(t)).length / terms.length;
  return { supported: fraction >= KEY_TERM_THRESHOLD, by: 'key_terms', fraction };
}

/**
 * A docugami answer without its trailer: the answers end with "SOURCE(S): 2023 Q3 AAPL.pdf", file names, not content.
 */
export function docugamiAnswer(answer: string): string {
  return answer.replace(/SOURCE\(S\):[\s\S]*$/i, '').trim();
}

/** Tokens for text overlap (letters and digits, lower-cased). */
export function overlapTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Share of a statement's tokens found in a passage, as a multiset (so a repeated token must be repeated).
 * Statements are short and passages long, so this reads "the statement comes from this passage".
 */
export function containment(statementTokens: readonly string[], passageCounts: ReadonlyMap<string, number>): number {
  if (!statementTokens.length) return 0;
  const used = new Map<string, number>();
  let hit = 0;
  for (const t of statementTokens) {
    const u = used.get(t) ?? 0;
    if (u < (passageCounts.get(t) ?? 0)) {
      hit++;
      used.set(t, u + 1);
    }
  }
  return hit / statementTokens.length;
}

export function counts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** A returned statement maps to a passage when at least this share of its tokens (multiset) is in the passage. */
const PASSAGE_CONTAINMENT = 0.8;
/** Statements shorter than this many tokens ("Total: 1,234") are too generic to map to one passage. */
const PASSAGE_MIN_TOKENS = 4;

/** A judged passage (FinQABench's corpus), as mappedPassages reads it. */
export interface Passage {
  id: string;
  tokens: string[];
  counts: Map<string, number>;
}

export function toPassage(id: string, text: string): Passage {
  const tokens = overlapTokens(text);
  return { id, tokens, counts: counts(tokens) };
}

/**
 * The passages a returned statement comes from: those containing the largest share of its tokens, when that share
 * is at least PASSAGE_CONTAINMENT (ties all count); none for a statement of fewer than PASSAGE_MIN_TOKENS tokens.
 */
export function mappedPassages(text: string, corpus: readonly Passage[]): string[] {
  const toks = overlapTokens(text);
  if (toks.length < PASSAGE_MIN_TOKENS) return [];
  let best = 0;
  let bestIds: string[] = [];
  for (const p of corpus) {
    const c = containment(toks, p.counts);
    if (c > best + 1e-9) [best, bestIds] = [c, [p.id]];
    else if (Math.abs(c - best) <= 1e-9) bestIds.push(p.id);
  }
  return best >= PASSAGE_CONTAINMENT ? bestIds : [];
}

/** nDCG@k with graded relevance (the qrels' scores), from a ranked list of passage ids. */
export function ndcgAt(k: number, ranked: readonly string[], rels: ReadonlyMap<string, number>): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    const r = rels.get(id) ?? 0;
    dcg += (2 ** r - 1) / Math.log2(i + 2);
  });
  const ideal = [...rels.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((a, r, i) => a + (2 ** r - 1) / Math.log2(i + 2), 0);
  return idcg ? dcg / idcg : 0;
}

export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

export const mean = (xs: readonly number[]): number | null =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
