/**
 * The primary financial statements (Regulation S-X: balance sheet, statements of income, comprehensive income, cash
 * flows and equity), by their titles. The builder marks every table row printed on a statement's pages with the
 * statement (Shard.flags, index-format/shard-layout.ts); a question about a statement or about one of its line items
 * prefers those rows (src/question/analyze.ts), because a figure restated in a note or in MD&A is one row among many
 * similar ones there, and the statement is where an analyst reads it.
 */
export const FINANCIAL_STATEMENTS = [
  'balance_sheet',
  'income_statement',
  'cash_flow_statement',
  'comprehensive_income',
  'equity_statement',
] as const;
export type FinancialStatement = (typeof FINANCIAL_STATEMENTS)[number];

/** 1-based code of a statement (0: none), as stored in three bits of a statement's flags. */
export function financialStatementCode(s: FinancialStatement): number {
  return FINANCIAL_STATEMENTS.indexOf(s) + 1;
}

const OWNERS = "(?:stock|share)(?:holders|owners) ?['’]?";
/**
 * Statement titles as filings print them, without "Condensed"/"Consolidated"/"Combined" (matched separately). A
 * statement of operations "and comprehensive income" is the income statement; comprehensive income alone is its own.
 */
const TITLES: readonly [FinancialStatement, string][] = [
  ['balance_sheet', `balance sheets?|statements? of (?:financial (?:position|condition))`],
  [
    'comprehensive_income',
    `statements? of comprehensive (?:income|loss|earnings)(?: \\(loss\\))?|comprehensive income statements?`,
  ],
  [
    'income_statement',
    `statements? of (?:\\(loss\\) )?(?:operations|income|earnings|(?:net )?(?:income|earnings)(?: ` +
      `\\(loss\\))?)(?: and comprehensive (?:income|loss|earnings)(?: \\(loss\\))?)?|income statements?`,
  ],
  ['cash_flow_statement', `statements? of cash flows?|cash flows? statements?`],
  ['equity_statement', `statements? of (?:changes in )?(?:${OWNERS} )?equity|${OWNERS} equity statements?`],
];

/**
 * A title cell: the statement's title, optionally after the company's name ("NIKE, Inc. Consolidated Statements of
 * Income") or before it when it names the group ("Consolidated Balance Sheets Verizon Communications Inc. and
 * Subsidiaries"), and before parentheticals ("(Unaudited)", "(continued)", a footnote's "(1)"). Table captions that
 * merely mention a statement ("Selected Income Statement Data", "Summary of ... Cash Flows") do not end with the
 * title, so they are not titles.
 */
const TITLE_CELL = new RegExp(
  `^(?:[A-Za-z0-9.,&'’ -]{0,60}? )??(?:condensed )?(?:consolidated )?(?:combined ` +
    `)?(?:${TITLES.map(([, t]) => `(${t})`).join('|')})` +
    `(?: \\([a-z0-9 ]+\\))*(?: ([A-Za-z0-9.,&'’ -]{1,60}? and (?:its )?subsidiar(?:y|ies)(?: ` +
    `companies)?))?(?: \\([a-z0-9 ]+\\))*$`,
  'i',
);
/** The group-name capture follows one capture per title (the titles' own groups do not capture). */
const GROUP = TITLES.length + 1;

/** The words of statement titles, to mend a word the page's layout broke ("Statem ents", "Balance Shee t"). */
const TITLE_WORDS = new Set(
  (
    'balance sheet sheets statement statements operations income earnings comprehensive consolidated ' +
    'condensed combined cash flow flows financial position condition changes equity stockholders shareholders'
  ).split(' '),
);

function mendBrokenWords(cell: string): string {
  const words = cell.split(' ');
  const out: string[] = [];
  for (const word of words) {
    const last = out[out.length - 1];
    if (last !== undefined && !TITLE_WORDS.has(word.toLowerCase()) && TITLE_WORDS.has((last + word).toLowerCase()))
      out[out.length - 1] = last + word;
    else out.push(word);
  }
  return out.join(' ');
}

/**
 * The statement a line titles, or null. Cells of a flattened line are three or more spaces apart ("Consolidated
 * Statements of Income   Corning Incorporated").
 */
export function financialStatementTitle(line: string): FinancialStatement | null {
  for (const raw of line.trim().split(/\s{3,}/)) {
    const cell = mendBrokenWords(raw.replace(/\s+/g, ' '));
    if (cell.length > 120) continue;
    const m = TITLE_CELL.exec(cell);
    // The group the statements are of is named, not described: "... Verizon Communications Inc. and Subsidiaries",
    // not "... balance sheets of the Company and subsidiaries" in the auditor's report.
    if (!m || (m[GROUP] !== undefined && !/^[A-Z0-9]/.test(m[GROUP]))) continue;
    for (let k = 0; k < TITLES.length; k++) if (m[k + 1] !== undefined) return TITLES[k]![0];
  }
  return null;
}

/** How many of a page's first non-empty lines may hold its statement title (company name, index links above it). */
export const TITLE_LINES = 6;

/** How a question names a statement: its title, or what analysts call it ("P&L"). */
const NAMED: readonly [FinancialStatement, RegExp][] = [
  ['balance_sheet', /\bbalance[\s-]sheets?\b|\bstatements? of financial (?:position|condition)\b/i],
  [
    'income_statement',
    /\bincome statements?\b|\bstatements? of (?:operations|income|earnings)\b|\bP&L\b|\bprofit and loss\b/i,
  ],
  ['cash_flow_statement', /\bcash[\s-]flows? statements?\b|\bstatements? of cash flows?\b/i],
];

/** The statements a question names, in FINANCIAL_STATEMENTS order. */
export function namedFinancialStatements(text: string): FinancialStatement[] {
  return FINANCIAL_STATEMENTS.filter((s) => NAMED.some(([n, re]) => n === s && re.test(text)));
}
