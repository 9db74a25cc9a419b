/**
 * Periods named in a question: fiscal years ("FY2023", "fiscal 2023", "FY23", bare "2023"), fiscal quarters
 * ("Q2 2023", "2Q23", "FY2023 Q2", "second quarter of fiscal 2023", a quarter without a year), the year to date a
 * 10-Q reports ("the first half of fiscal 2023", "H1 2023": the second quarter's; "the first nine months of 2023":
 * the third's) and calendar dates ("December 30, 2023", "2023-12-30", "12/30/2023"). Quarter years are read as fiscal
 * years, as companies report them. Pure text scanning; filters/infer.ts decides what becomes a filter.
 */
export interface QuarterMention {
  /** A year to date counts as the quarter whose 10-Q reports it (a half: 2, nine months: 3). */
  quarter: 1 | 2 | 3 | 4;
  /** FY-YYYY, or null when the question names the quarter alone ("in Q3"). */
  year: string | null;
}

/**
 * The words a question names a quarter or a year to date with: when it names one, they say which filing to read
 * (src/plan/query-plan.ts periodCredit), not what to find in it. Written as the analyzer writes them (it stems
 * "months" to "month"), since they are matched against a query's terms.
 */
export const QUARTER_WORDS: ReadonlySet<string> = new Set(
  'first second third fourth 1st 2nd 3rd 4th quarter q1 q2 q3 q4 half h1 1h six nine month'.split(' '),
);

export interface PeriodMentions {
  /** Fiscal years named on their own (not as part of a quarter or a date). */
  years: string[];
  quarters: QuarterMention[];
  /** ISO dates YYYY-MM-DD. */
  dates: string[];
}

const ORDINALS: Record<string, 1 | 2 | 3 | 4> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// A two-digit year must not run on into a number or a form code ("Q2 10-Q" is not 2010).
const YEAR = String.raw`(\d{4}|\d{2})(?![\d-])`;
const FY_PREFIX = String.raw`(?:FY|fiscal(?:\s+year)?)`;

const QUARTER_PATTERNS: {
  re: RegExp;
  q: (m: RegExpMatchArray) => string;
  y: (m: RegExpMatchArray) => string | undefined;
}[] = [
  // Most specific first: each match is blanked out before the next pattern runs.
  // 2023 Q2, FY2023 Q2, FY2023Q2, FY-2023-Q2
  { re: /\b(?:FY\s*-?\s*)?(\d{4})\s*[-/]?\s*Q([1-4])\b/gi, q: (m) => m[2]!, y: (m) => m[1] },
  // second quarter of fiscal 2023, third quarter 2023, 2nd fiscal quarter of 2024, the fourth quarter
  {
    re: new RegExp(
      String.raw`\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter(?:\s+(?:of|in|for|ended))?` +
        String.raw`(?:\s+(?:the\s+)?(?:${FY_PREFIX}|calendar(?:\s+year)?)\s*-?)?(?:\s*'?${YEAR})?`,
      'gi',
    ),
    q: (m) => String(ORDINALS[m[1]!.toLowerCase()]),
    y: (m) => m[2],
  },
  // The first half of fiscal 2023, the first six months of 2023, the first nine months of 2023: a 10-Q reports the
  // year to date, so a half is the second quarter's filing and nine months the third's.
  {
    re: new RegExp(
      String.raw`\b(?:first|1st)\s+(half|six\s+months|nine\s+months)(?:\s+(?:of|in|for|ended))?` +
        String.raw`(?:\s+(?:the\s+)?(?:${FY_PREFIX}|calendar(?:\s+year)?)\s*-?)?(?:\s*'?${YEAR})?`,
      'gi',
    ),
    q: (m) => (/nine/i.test(m[1]!) ? '3' : '2'),
    y: (m) => m[2],
  },
  // H1 2023, 1H23, H1 FY2023
  { re: new RegExp(String.raw`\b(?:H1|1H)\s*(?:${FY_PREFIX})?\s*[-']?\s*${YEAR}`, 'gi'), q: () => '2', y: (m) => m[1] },
  // Q2 2023, Q2 FY2023, Q2'23, Q2 of fiscal 2023, Q2
  {
    re: new RegExp(String.raw`\bQ([1-4])(?:\s*(?:of\s+)?(?:${FY_PREFIX})?\s*[-']?\s*${YEAR})?(?![\w-])`, 'gi'),
    q: (m) => m[1]!,
    y: (m) => m[2],
  },
  // 2Q23, 2Q 2023, 2Q FY23
  { re: new RegExp(String.raw`\b([1-4])Q\s*[-']?\s*(?:FY\s*)?${YEAR}`, 'gi'), q: (m) => m[1]!, y: (m) => m[2] },
];

function toFiscalYear(y: string): string {
  return `FY-${y.length === 2 ? `20${y}` : y}`;
}

function isoDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function findPeriods(query: string): PeriodMentions {
  const years = new Set<string>();
  const quarters = new Map<string, QuarterMention>();
  const dates = new Set<string>();

  // Dates first, blanked out of the text: the year inside "December 30, 2023" is not a fiscal-year mention (for a
  // September fiscal year that quarter belongs to FY2024); infer.ts resolves dates against the filings' periods.
  const DATE_PATTERNS: [RegExp, (m: RegExpMatchArray) => string | null][] = [
    [
      /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})\b/gi,
      (m) => isoDate(Number(m[3]), MONTHS.indexOf(m[1]!.toLowerCase().slice(0, 3)) + 1, Number(m[2])),
    ],
    [/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => isoDate(Number(m[1]), Number(m[2]), Number(m[3]))],
    [/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, (m) => isoDate(Number(m[3]), Number(m[1]), Number(m[2]))],
  ];
  let text = query;
  for (const [re, toIso] of DATE_PATTERNS) {
    text = text.replace(re, (...args) => {
      const d = toIso(args.slice(0, -2) as unknown as RegExpMatchArray);
      if (!d) return args[0] as string;
      dates.add(d);
      return ' '.repeat((args[0] as string).length);
    });
  }

  // Quarters next, also blanked out: their year belongs to the quarter (infer.ts resolves it against filings).
  for (const { re, q, y } of QUARTER_PATTERNS) {
    text = text.replace(re, (...args) => {
      const m = args.slice(0, -2) as unknown as RegExpMatchArray;
      const year = y(m);
      const mention: QuarterMention = {
        quarter: Number(q(m)) as 1 | 2 | 3 | 4,
        year: year ? toFiscalYear(year) : null,
      };
      quarters.set(`${mention.quarter}/${mention.year}`, mention);
      return ' '.repeat((args[0] as string).length);
    });
  }
  // A quarter named without a year is dropped when the same quarter is also named with one.
  for (const [key, m] of quarters)
    if (m.year === null && [...quarters.values()].some((o) => o.quarter === m.quarter && o.year)) quarters.delete(key);

  for (const m of text.matchAll(new RegExp(String.raw`\b${FY_PREFIX}\s*[-']?\s*${YEAR}`, 'gi')))
    years.add(toFiscalYear(m[1]!));
  // Bare years, but not inside numbers ("$2,019", "12019") or amounts.
  for (const m of text.matchAll(/(?<![\d,.$])((?:19|20)\d{2})(?![\d,]\d|\.\d)/g)) years.add(`FY-${m[1]}`);

  return {
    years: [...years].sort(),
    quarters: [...quarters.values()].sort(
      (a, b) => (a.year ?? '').localeCompare(b.year ?? '') || a.quarter - b.quarter,
    ),
    dates: [...dates].sort(),
  };
}
