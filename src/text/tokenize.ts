/**
 * The one analyzer shared by the index builder and the Worker. Changing anything here changes every token in the
 * index, so bump ANALYZER_VERSION: the Worker refuses an index built with another analyzer version, and builds do
 * not reuse filings segmented by another one. Bump it too when what segmentation reads from a filing changes.
 * 2: table rows carry the financial statement they are printed on; a "June 30,   2023   2022" header labels its
 * columns.
 */
export const ANALYZER_VERSION = 2;

// Short, conservative list: words that carry no retrieval signal in filings. Negations and modal verbs stay,
// because "not", "may" and "could" matter for epistemic status.
const STOPWORDS = new Set(
  (
    'a an and are as at be been being by for from has have had he her his i in into is it its of on or our ' +
    'she such that the their them then there these they this those to was we were which while who whom with ' +
    'you your what when where how why do does did than also any each other per'
  ).split(' '),
);

/**
 * Light, deterministic suffix stripping for plurals and possessives only. Heavier stemming merges
 * financial terms that must stay apart ("operating" vs "operations" matter less than "sales" vs "sale").
 */
export function stem(token: string): string {
  if (token.length <= 3 || /\d/.test(token)) return token;
  if (token.endsWith('ies') && token.length > 4) return `${token.slice(0, -3)}y`;
  if (token.endsWith('sses')) return token.slice(0, -2);
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
