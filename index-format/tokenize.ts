/**
 * The one analyzer shared by the index builder and the Worker. Changing anything here changes every token in the
 * index, so bump ANALYZER_VERSION: the Worker refuses an index built with another analyzer version, and builds do
 * not reuse filings segmented by another one. Bump it too when what segmentation reads from a filing changes.
 * 2: table rows carry the financial statement they are printed on; a "June 30,   2023   2022" header labels its
 * columns.
 * 3: a statement's word of two hyphen-joined letter parts is also posted as its joined form (hyphenCompounds).
 * 4: plurals in "-xes", "-ches" and "-shes" lose "es" ("taxes" -> "tax", not "taxe").
 * 5: irregular plurals of words filings use ("useful lives" -> "life", "metrics" -> "metric").
 */
export const ANALYZER_VERSION = 5;

// Short, conservative list: words that carry no retrieval signal in filings. Negations and modal verbs stay,
// because "not", "may" and "could" matter for epistemic status.
const STOPWORDS = new Set(
  (
    'a an and are as at be been being by for from has have had he her his i in into is it its of on or our ' +
    'she such that the their them then there these they this those to was we were which while who whom with ' +
    'you your what when where how why do does did than also any each other per'
  ).split(' '),
);

/** Plurals of nouns that end in "che", which add "s" only. */
const CHE_NOUNS = new Set([
  'tranches',
  'caches',
  'niches',
  'headaches',
  'avalanches',
  'cliches',
  'psyches',
  'microfiches',
]);

/**
 * Plurals the suffix rules below get wrong, as their singular: "-ves" ("useful lives"), "-uses" and "-ses" of words
 * in "-us" and "-is" (which the rules leave alone in the singular), Latin "-ices", and count nouns in "-ics" (the
 * rules keep "-ics" whole for the names of fields: "economics", "electronics", "logistics").
 */
const IRREGULAR_PLURALS = new Map(
  Object.entries({
    lives: 'life',
    halves: 'half',
    shelves: 'shelf',
    bonuses: 'bonus',
    statuses: 'status',
    surpluses: 'surplus',
    viruses: 'virus',
    campuses: 'campus',
    analyses: 'analysis',
    crises: 'crisis',
    hypotheses: 'hypothesis',
    indices: 'index',
    appendices: 'appendix',
    matrices: 'matrix',
    metrics: 'metric',
    characteristics: 'characteristic',
    topics: 'topic',
    clinics: 'clinic',
    generics: 'generic',
    biologics: 'biologic',
    plastics: 'plastic',
  }),
);

/**
 * Light, deterministic suffix stripping for plurals and possessives only. Heavier stemming merges
 * financial terms that must stay apart ("operating" vs "operations" matter less than "sales" vs "sale").
 */
export function stem(token: string): string {
  if (token.length <= 3 || /\d/.test(token)) return token;
  const singular = IRREGULAR_PLURALS.get(token);
  if (singular) return singular;
  if (token.endsWith('ies') && token.length > 4) return `${token.slice(0, -3)}y`;
  if (token.endsWith('sses')) return token.slice(0, -2);
  // "taxes", "branches", "wishes": the plural adds "es" after x, ch and sh ("caches" and "niches" add "s")
  if (/(?:x|ch|sh)es$/.test(token) && !CHE_NOUNS.has(token)) return token.slice(0, -2);
  if (token.endsWith('s') && !/(ss|us|is|ics)$/.test(token)) return token.slice(0, -1);
  return token;
}

/**
 * Splits text into index terms: NFKC, lower case, letters and digits; thousands separators inside numbers are
 * dropped ("1,577" -> "1577") so figures match however they are written; "&" joins words like "PP&E" -> "pp&e".
 */
export function tokenize(text: string): string[] {
  // Most filing text is ASCII: NFKC leaves it unchanged and, lower-cased, its letters and digits are [a-z0-9], so
  // the same tokens come from a plain pattern without the Unicode normalization and property classes.
  return ASCII.test(text) ? tokenizeWith(text.toLowerCase(), ASCII_WORD) : tokenizeUnicode(text);
}

/** The general path for any text (the slow twin of the ASCII path in tests). */
export function tokenizeUnicode(text: string): string[] {
  return tokenizeWith(text.normalize('NFKC').toLowerCase(), UNICODE_WORD);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+(?:[&'.,][a-z0-9]+)*/g;
const UNICODE_WORD = /[\p{L}\p{N}]+(?:[&'’.,][\p{L}\p{N}]+)*/gu;

function tokenizeWith(lowered: string, re: RegExp): string[] {
  const out: string[] = [];
  for (const match of lowered.matchAll(re)) {
    let token = match[0];
    if (/^[\d.,]+$/.test(token)) {
      token = token.replace(/,/g, '').replace(/\.0+$/, '');
    } else {
      token = token.replace(/['’]s$/, '').replace(/['’]/g, '');
      if (token.includes('.') || token.includes(',')) {
        // "U.S." stays one token; sentence-internal "word,word" from bad extraction splits.
        if (/^(?:\p{L}\.)+\p{L}?$/u.test(token)) token = token.replace(/\./g, '');
        else {
          for (const part of token.split(/[.,]/)) pushTerm(out, part);
          continue;
        }
      }
    }
    pushTerm(out, token);
  }
  return out;
}

function pushTerm(out: string[], token: string): void {
  if (!token || STOPWORDS.has(token)) return;
  if (token.length > 40) return; // extraction garbage, never a useful term
  out.push(stem(token));
}

/**
 * A statement's index terms: its words (tokenize) and the joined form of each word of two letter parts joined by a
 * hyphen (hyphenCompounds). What the postings hold and what the Worker matches a statement's text against.
 */
export function indexTerms(text: string): string[] {
  const joined = hyphenCompounds(text);
  const words = tokenize(text);
  return joined.length ? [...words, ...joined] : words;
}

/**
 * The joined form of each word of exactly two letter parts joined by one hyphen ("pre-tax" -> "pretax"; not
 * "year-over-year", "10-K" or "COVID-19"), stemmed as a word is. Filings spell such words both ways ("pre-tax" and
 * "pretax", "non-cash" and "noncash", "e-commerce" and "eCommerce"), so a statement is also posted under the joined
 * form and a question writing it closed finds either spelling, while its parts still find the compound ("tax").
 * A question's own terms never hold the joined form: its "raw-material" would be a rare term that only the
 * statements printing that hyphen hold, a phrase bonus no other wording gets (Lucene's WordDelimiterFilter
 * documentation: catenate in the analyzer used for indexing, not in the one used for querying); its hyphenated
 * words are read by queryCompounds instead. The joined form is posted beside its parts, not counted in a
 * statement's length, as Lucene discounts a token that shares its position with another.
 */
export function hyphenCompounds(text: string): string[] {
  return compoundWords(text).map(([joined]) => joined);
}

/** The general path of hyphenCompounds (the slow twin of its ASCII path in tests). */
export function hyphenCompoundsUnicode(text: string): string[] {
  return compoundWords(text, true).map(([joined]) => joined);
}

/** How a path reads words: its word pattern, a word of letters only, and its hyphens (NFKC keeps U+2010). */
interface Script {
  word: RegExp;
  letters: RegExp;
  hyphen: RegExp;
}

const ASCII_SCRIPT: Script = { word: ASCII_WORD, letters: /^[a-z]+$/, hyphen: /^-$/ };
const UNICODE_SCRIPT: Script = { word: UNICODE_WORD, letters: /^\p{L}+$/u, hyphen: /^[-\u2010\u2011]$/u };

/**
 * Each hyphenated word of two letter parts: its joined form and its parts, as terms ([] for a stop word). ASCII text
 * is read as tokenize reads it, without normalization; `unicode` forces the general path.
 */
function compoundWords(
  text: string,
  unicode = !ASCII.test(text),
): [joined: string, first: string[], second: string[]][] {
  const script = unicode ? UNICODE_SCRIPT : ASCII_SCRIPT;
  const lowered = unicode ? text.normalize('NFKC').toLowerCase() : text.toLowerCase();
  const out: [string, string[], string[]][] = [];
  const isHyphen = (c: string | undefined) => c !== undefined && script.hyphen.test(c);
  let previous: RegExpExecArray | null = null;
  for (const match of lowered.matchAll(script.word)) {
    const first = previous;
    previous = match;
    if (!first) continue;
    const end = first.index + first[0].length;
    if (match.index !== end + 1 || !isHyphen(lowered[end])) continue;
    if (!script.letters.test(first[0]) || !script.letters.test(match[0])) continue;
    if (isHyphen(lowered[first.index - 1]) || isHyphen(lowered[match.index + match[0].length])) continue;
    const joined: string[] = [];
    pushTerm(joined, first[0] + match[0]);
    const a: string[] = [];
    const b: string[] = [];
    pushTerm(a, first[0]);
    pushTerm(b, match[0]);
    if (joined.length) out.push([joined[0]!, a, b]);
  }
  return out;
}

/** A hyphenated word of a question: its parts (query terms; a stop word is none) and its joined spelling. */
export interface Compound {
  joined: string;
  parts: string[];
}

/**
 * The hyphenated words of a question (what hyphenCompounds posts for a statement): a statement printing the joined
 * spelling ("eCommerce") holds the parts of the question's "e-commerce" (src/search/lexical.ts, term-membership.ts).
 */
export function queryCompounds(text: string): Compound[] {
  const out: Compound[] = [];
  for (const [joined, a, b] of compoundWords(text)) {
    const parts = [...a, ...b];
    if (parts.length && !out.some((c) => c.joined === joined)) out.push({ joined, parts });
  }
  return out;
}
