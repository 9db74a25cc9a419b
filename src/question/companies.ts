import { cueWords, NOT_TICKERS } from './cues';

/**
 * Companies and company groups a question names: by name or alias (any case), by ticker (capitals, "$"), and by
 * GICS sector or sub-industry value. Matched against the directory's own names, so nothing here lists companies.
 */
/** Upper-case words in questions that are not tickers even when a company trades under them (src/question/cues.ts). */
const ACRONYMS = cueWords(NOT_TICKERS);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lower-case words of a name or question, as company aliases are written (no periods, commas or possessives). */
function toWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[’']s\b/g, ' ')
    .replace(/[^\p{L}\p{N}&-]+/gu, ' ')
    .split(' ')
    .filter(Boolean);
}

/**
 * Aliases by their words (as toWords writes a question), built once per company list: a question is matched by its
 * own phrases, so the work does not grow with the number of issuers.
 */
function aliasIndex(companies: readonly { ticker: string; aliases: readonly string[] }[]): AliasIndex {
  let index = aliasIndexes.get(companies);
  if (!index) {
    const byAlias = new Map<string, string[]>();
    const aliasWords = new Set<string>();
    for (const c of companies) {
      for (const alias of c.aliases) {
        if (alias === c.ticker.toLowerCase()) continue; // tickers only in capitals, below
        const key = toWords(alias).join(' ');
        aliasWords.add(key);
        const list = byAlias.get(key);
        if (!list) byAlias.set(key, [c.ticker]);
        else if (!list.includes(c.ticker)) list.push(c.ticker);
      }
    }
    aliasIndexes.set(companies, (index = { byAlias, aliasWords, known: new Set(companies.map((c) => c.ticker)) }));
  }
  return index;
}

interface AliasIndex {
  byAlias: Map<string, string[]>;
  aliasWords: Set<string>;
  known: Set<string>;
}
const aliasIndexes = new WeakMap<readonly { ticker: string }[], AliasIndex>();

/** Companies named in the question by alias (any case) or by ticker (written in capitals), plus unknown tickers. */
export function findCompanies(
  query: string,
  companies: readonly { ticker: string; aliases: readonly string[] }[],
): { tickers: string[]; unknown: string[] } {
  const words = toWords(query);
  const { byAlias, aliasWords, known } = aliasIndex(companies);
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 6 && i + n <= words.length; n++)
      for (const t of byAlias.get(words.slice(i, i + n).join(' ')) ?? []) found.add(t);
  }
  // Tickers: capitals (with an optional class suffix, BRK.B), any case after "$", or a word with a capital inside it
  // ("ChpX", "eBay" for EBAY): no English word is written that way, so its case says it is a name. A question typed
  // in capitals says nothing by its case, so then only "$" tickers count.
  const letters = query.replace(/[^A-Za-z]/g, '');
  const shouting = letters.length > 0 && letters.replace(/[^A-Z]/g, '').length / letters.length > 0.6;
  const unknown = new Set<string>();
  for (const m of query.matchAll(
    /(\$)?(?<![A-Za-z0-9.&])([A-Za-z]{1,5}(?:\.[A-Za-z])?)(?:[’']s)?(?![A-Za-z0-9&]|\.[A-Za-z0-9])/g,
  )) {
    const dollar = !!m[1];
    const token = m[2]!;
    const upper = token.toUpperCase();
    const camel = /[a-z][A-Z]/.test(token);
    if (!dollar && !camel && (token !== upper || shouting || token.length < 2 || ACRONYMS.has(upper))) continue;
    // a camel-cased word that is no ticker is a name ("McKesson"), not unknown
    if (camel && !known.has(upper)) continue;
    if (known.has(upper)) found.add(upper);
    // A company name written in capitals ("AMCOR") is a name, not an unknown ticker.
    // Unknown two-letter words ("JP Morgan", "OP margin", "LT debt") are too often abbreviations to warn about.
    else if (/^[A-Z]{3,5}(?:\.[A-Z])?$/.test(upper) && !aliasWords.has(token.toLowerCase())) unknown.add(upper);
  }
  // When the question names a known company, other words in capitals are its segments and metrics ("AWS", "DPO").
  return { tickers: [...found].sort(), unknown: found.size ? [] : [...unknown].sort() };
}

/**
 * A catalog value's words as patterns that accept singular and plural and "and" for "&", plus what each must contain.
 */
function valueWords(value: string): { pattern: string; stem: string }[] {
  return value
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((w) => {
      if (w === '&' || w === 'and') return { pattern: '(?:&|and)', stem: '' };
      if (w.endsWith('ies')) return { pattern: `${escapeRegExp(w.slice(0, -3))}(?:y|ies)`, stem: w.slice(0, -3) };
      if (w.endsWith('s') && !w.endsWith('ss'))
        return { pattern: `${escapeRegExp(w.slice(0, -1))}s?`, stem: w.slice(0, -1) };
      return { pattern: `${escapeRegExp(w)}s?`, stem: w };
    });
}

const SECTOR_CUE =
  '(?:sectors?|sub-?industr(?:y|ies)|industr(?:y|ies)|companies|company|firms|issuers|stocks|names|peers|businesses)';

interface ClassificationMatcher {
  /** Literal pieces every match contains: a question without one of them cannot match, and no pattern is compiled. */
  stems: string[];
  re: RegExp | undefined;
  source: string;
}

/**
 * Matchers per catalog value and cue rule, built once per isolate. Compiling a Unicode pattern per value on every
 * request cost a fresh isolate's first query about 18 ms (measured), for some 150 values of which a question names
 * none or one.
 */
const matchers = new Map<string, ClassificationMatcher>();

function matcherFor(value: string, alwaysCue: boolean): ClassificationMatcher {
  const key = `${alwaysCue ? 1 : 0}${value}`;
  let m = matchers.get(key);
  if (!m) {
    const words = valueWords(value);
    const needsCue = alwaysCue || value.trim().split(/\s+/).length < 2;
    const source =
      `(?<![\\p{L}\\p{N}])${words.map((w) => w.pattern).join('[\\s,-]+')}${needsCue ? `[\\s-]+${SECTOR_CUE}` : ''}` +
      `(?![\\p{L}\\p{N}])`;
    m = { stems: words.map((w) => w.stem).filter(Boolean), re: undefined, source };
    matchers.set(key, m);
  }
  return m;
}

/**
 * Sector and sub-industry values named in the question. Sector names are everyday words ("energy", "materials"),
 * so they count only when followed by a cue ("utilities sector", "energy companies"); multi-word sub-industries
 * ("electric utilities") are specific enough alone, one-word ones ("semiconductors") need the cue too.
 */
export function findClassification(query: string, values: readonly string[], alwaysCue: boolean): string[] {
  const lower = query.toLowerCase();
  return values.filter((v) => {
    const m = matcherFor(v, alwaysCue);
    if (!m.stems.every((stem) => lower.includes(stem))) return false;
    m.re ??= new RegExp(m.source, 'u');
    return m.re.test(lower);
  });
}
