import type { FinancialStatement } from './financial-statements';

/**
 * The metric vocabulary shared by the builder (tagging statements, linking table facts to the sentences that
 * discuss them) and the Worker (glossary descriptions, agentic planning of ratio inputs). Order matters: the first
 * metric whose pattern matches a text tags it, so specific phrases come before general ones ("cost of sales" before
 * "sales", "net cash provided by operating activities" before "net income").
 */
export interface Metric {
  /** Stable id stored in shards (its 1-based position in METRICS is the shard code; append, never reorder). */
  id: string;
  name: string;
  description: string;
  /** Ratios and derived metrics: the metric ids they are computed from, numerator first. */
  inputs?: readonly string[];
  /**
   * The primary financial statement that reports the line item (index-format/financial-statements.ts): a question about
   * it prefers that statement's rows. Absent for ratios (their inputs have one) and for figures of no one statement.
   */
  statement?: FinancialStatement;
  /** Phrases (lower case) that name the metric; matched on word boundaries. */
  synonyms: readonly string[];
  /**
   * Phrases that name the metric in a question but another metric in a filing (read with `metricCodes(text, max,
   * 'question')`): analysts say "gross margin" for the percentage, while Apple, Microsoft or Intel print their gross
   * profit as "Gross margin". Example: "How has Acme's gross margin moved since 2021?" asks for gross profit over
   * revenue, and its plan searches both rows.
   */
  questionSynonyms?: readonly string[];
}

export const METRICS: readonly Metric[] = [
  {
    id: 'operating_cash_flow',
    name: 'Cash from operations',
    description: 'Net cash provided by (used in) operating activities, from the cash-flow statement.',
    statement: 'cash_flow_statement',
    synonyms: [
      'net cash provided by operating activities',
      'net cash provided by (used in) operating activities',
      'net cash from operating activities',
      'cash provided by operations',
      'cash flows from operating activities',
      'cash flow from operations',
      'cash from operations',
      'operating cash flow',
    ],
  },
  {
    id: 'capex',
    name: 'Capital expenditure',
    description:
      'Capital expenditure = purchases of property, plant and equipment (cash-flow statement, investing ' +
      'activities); shown negative there.',
    statement: 'cash_flow_statement',
    synonyms: [
      'purchases of property, plant and equipment',
      'purchase of property, plant and equipment',
      'payments for acquisition of property, plant and equipment',
      'purchases of property and equipment',
      'additions to property, plant and equipment',
      'additions to property and equipment',
      'capital expenditures',
      'capital expenditure',
      'capital spending',
      'capex',
    ],
  },
  {
    id: 'free_cash_flow',
    name: 'Free cash flow',
    description: 'Free cash flow = cash from operations - capital expenditure (a non-GAAP measure).',
    inputs: ['operating_cash_flow', 'capex'],
    synonyms: ['free cash flow'],
  },
  {
    id: 'gross_margin_pct',
    name: 'Gross margin (%)',
    description: 'Gross margin = gross profit / revenue, as a percentage.',
    inputs: ['gross_profit', 'revenue'],
    synonyms: [
      'gross margin percentage',
      'gross margin as a percentage',
      'gross profit margin',
      'gross margin %',
      'gross margin rate',
    ],
    questionSynonyms: ['gross margin', 'gross margins'],
  },
  {
    id: 'operating_margin_pct',
    name: 'Operating margin (%)',
    description: 'Operating margin = operating income / revenue, as a percentage.',
    inputs: ['operating_income', 'revenue'],
    synonyms: ['operating margin', 'operating income margin', 'operating income as a percentage'],
  },
  {
    id: 'cost_of_sales',
    name: 'Cost of sales',
    description: 'Cost of sales (cost of goods sold, cost of revenue).',
    statement: 'income_statement',
    synonyms: [
      'cost of sales',
      'cost of goods sold',
      'cost of revenues',
      'cost of revenue',
      'cost of products sold',
      'costs of sales',
      'cogs',
    ],
  },
  {
    id: 'gross_profit',
    name: 'Gross profit',
    description: 'Gross profit = revenue - cost of sales (some filers call the amount "gross margin").',
    statement: 'income_statement',
    synonyms: ['gross profit', 'gross margin'],
  },
  {
    id: 'rnd',
    name: 'Research and development',
    description: 'Research and development expense.',
    statement: 'income_statement',
    synonyms: ['research and development', 'research, development', 'r&d'],
  },
  {
    id: 'sga',
    name: 'SG&A',
    description: 'Selling, general and administrative expense.',
    statement: 'income_statement',
    synonyms: ['selling, general and administrative', 'selling, general, and administrative', 'sg&a'],
  },
  {
    id: 'operating_income',
    name: 'Operating income',
    description: 'Operating income (income from operations, operating profit).',
    statement: 'income_statement',
    synonyms: [
      'operating income',
      'income from operations',
      'operating profit',
      'operating (loss) income',
      'operating income (loss)',
      'earnings from operations',
    ],
  },
  {
    id: 'eps',
    name: 'Earnings per share',
    description: 'Earnings per share (basic and diluted), net income / weighted average shares.',
    statement: 'income_statement',
    synonyms: [
      'earnings per share',
      'earnings per common share',
      'net income per share',
      'net income per common share',
      'net earnings per share',
      'eps',
      'diluted earnings',
      'income per share',
    ],
  },
  {
    id: 'dividends',
    name: 'Dividends',
    description: 'Dividends paid or declared (cash paid to shareholders, or per share).',
    statement: 'cash_flow_statement',
    synonyms: [
      'dividends paid',
      'cash dividends',
      'dividends declared',
      'dividends per share',
      'dividend payments',
      'payment of dividends',
      'dividends to shareholders',
      'dividends',
    ],
  },
  {
    id: 'share_repurchases',
    name: 'Share repurchases',
    description: "Purchases of the company's own shares (buybacks, treasury stock).",
    statement: 'cash_flow_statement',
    synonyms: [
      'repurchases of common stock',
      'repurchase of common stock',
      'purchases of treasury stock',
      'purchase of treasury stock',
      'share repurchases',
      'share repurchase',
      'stock repurchases',
      'shares repurchased',
    ],
  },
  {
    id: 'net_income',
    name: 'Net income',
    description: 'Net income (net earnings), the bottom line of the income statement.',
    statement: 'income_statement',
    synonyms: [
      'net income attributable',
      'net income',
      'net earnings',
      'net (loss) income',
      'net income (loss)',
      'net loss',
      'profit for the year',
    ],
  },
  {
    id: 'income_tax',
    name: 'Income taxes',
    description: 'Provision for income taxes and the effective tax rate.',
    statement: 'income_statement',
    synonyms: ['provision for income taxes', 'income tax expense', 'income taxes', 'effective tax rate'],
  },
  {
    id: 'interest_expense',
    name: 'Interest expense',
    description: 'Interest expense on debt.',
    statement: 'income_statement',
    synonyms: ['interest expense'],
  },
  {
    id: 'depreciation',
    name: 'Depreciation and amortization',
    description: 'Depreciation and amortization expense.',
    statement: 'cash_flow_statement',
    synonyms: ['depreciation and amortization', 'depreciation, depletion and amortization', 'depreciation'],
  },
  {
    id: 'total_assets',
    name: 'Total assets',
    description: 'Total assets from the balance sheet.',
    statement: 'balance_sheet',
    synonyms: ['total assets'],
  },
  {
    id: 'total_liabilities',
    name: 'Total liabilities',
    description: 'Total liabilities from the balance sheet.',
    statement: 'balance_sheet',
    synonyms: ['total liabilities'],
  },
  {
    id: 'equity',
    name: "Shareholders' equity",
    description: "Total shareholders' (stockholders') equity.",
    statement: 'balance_sheet',
    synonyms: [
      "total shareholders' equity",
      "total stockholders' equity",
      'total shareholders’ equity',
      'total stockholders’ equity',
      'total equity',
      "shareholders' equity",
      "stockholders' equity",
    ],
  },
  {
    id: 'inventory',
    name: 'Inventory',
    description: 'Inventories (balance sheet), or their change (cash-flow statement).',
    statement: 'balance_sheet',
    synonyms: ['inventories', 'inventory'],
  },
  {
    id: 'accounts_receivable',
    name: 'Accounts receivable',
    description: 'Accounts receivable (trade receivables).',
    statement: 'balance_sheet',
    synonyms: ['accounts receivable', 'trade receivables', 'receivables'],
  },
  {
    id: 'cash',
    name: 'Cash and equivalents',
    description: 'Cash and cash equivalents.',
    statement: 'balance_sheet',
    synonyms: ['cash and cash equivalents', 'cash and equivalents'],
  },
  {
    id: 'debt',
    name: 'Debt',
    description: 'Long-term and short-term debt, borrowings.',
    statement: 'balance_sheet',
    synonyms: [
      'long-term debt',
      'total debt',
      'short-term debt',
      'short-term borrowings',
      'notes payable',
      'borrowings',
    ],
  },
  {
    id: 'revenue',
    name: 'Revenue',
    description: 'Net sales / revenue (total, segment or product revenue).',
    statement: 'income_statement',
    synonyms: [
      'total net sales',
      'net sales',
      'total revenues',
      'total revenue',
      'net revenues',
      'net revenue',
      'operating revenues',
      'revenues',
      'revenue',
      'sales',
    ],
  },
  // Appended after the first set (codes are positions, so new metrics go last): balance-sheet line items and the ratios
  // analysts compute from them.
  {
    id: 'current_assets',
    name: 'Current assets',
    description: 'Total current assets from the balance sheet.',
    statement: 'balance_sheet',
    synonyms: ['total current assets'],
  },
  {
    id: 'current_liabilities',
    name: 'Current liabilities',
    description: 'Total current liabilities from the balance sheet.',
    statement: 'balance_sheet',
    synonyms: ['total current liabilities'],
  },
  {
    id: 'accounts_payable',
    name: 'Accounts payable',
    description: 'Accounts payable (trade payables) from the balance sheet.',
    statement: 'balance_sheet',
    synonyms: ['accounts payable', 'trade payables', 'trade accounts payable'],
  },
  {
    id: 'ppe',
    name: 'Property, plant and equipment',
    description:
      'Property, plant and equipment, net of accumulated depreciation (fixed assets), from the balance sheet.',
    statement: 'balance_sheet',
    synonyms: [
      'property, plant and equipment, net',
      'property and equipment, net',
      'net property, plant and equipment',
      'net property and equipment',
      'pp&e',
      'ppne',
      'fixed assets',
    ],
  },
  {
    id: 'short_term_investments',
    name: 'Short-term investments',
    description: 'Short-term investments and marketable securities held as current assets.',
    statement: 'balance_sheet',
    synonyms: ['short-term investments', 'marketable securities', 'short-term marketable securities'],
  },
  {
    id: 'working_capital',
    name: 'Working capital',
    description: 'Working capital = current assets - current liabilities.',
    inputs: ['current_assets', 'current_liabilities'],
    synonyms: ['net working capital', 'working capital'],
  },
  {
    id: 'current_ratio',
    name: 'Current ratio',
    description: 'Current ratio = current assets / current liabilities.',
    inputs: ['current_assets', 'current_liabilities'],
    synonyms: ['current ratio'],
  },
  {
    id: 'quick_ratio',
    name: 'Quick ratio',
    description:
      'Quick ratio = (cash and equivalents + short-term investments + accounts receivable) / current liabilities.',
    inputs: ['cash', 'short_term_investments', 'accounts_receivable', 'current_liabilities'],
    synonyms: ['quick ratio', 'acid-test ratio', 'acid test ratio'],
  },
  {
    id: 'inventory_turnover',
    name: 'Inventory turnover',
    description: 'Inventory turnover = cost of sales / average inventory.',
    inputs: ['cost_of_sales', 'inventory'],
    synonyms: ['inventory turnover'],
  },
  {
    id: 'dpo',
    name: 'Days payable outstanding',
    description: 'Days payable outstanding = 365 x average accounts payable / cost of sales.',
    inputs: ['accounts_payable', 'cost_of_sales'],
    synonyms: ['days payable outstanding', 'dpo'],
  },
  {
    id: 'fixed_asset_turnover',
    name: 'Fixed asset turnover',
    description: 'Fixed asset turnover = revenue / average property, plant and equipment (net).',
    inputs: ['revenue', 'ppe'],
    synonyms: ['fixed asset turnover'],
  },
  {
    id: 'asset_turnover',
    name: 'Asset turnover',
    description: 'Asset turnover = revenue / average total assets.',
    inputs: ['revenue', 'total_assets'],
    synonyms: ['total asset turnover', 'asset turnover'],
  },
  {
    id: 'return_on_assets',
    name: 'Return on assets',
    description: 'Return on assets = net income / average total assets.',
    inputs: ['net_income', 'total_assets'],
    synonyms: ['return on assets', 'roa'],
  },
  {
    id: 'operating_cash_flow_ratio',
    name: 'Operating cash flow ratio',
    description: 'Operating cash flow ratio = cash from operations / current liabilities.',
    inputs: ['operating_cash_flow', 'current_liabilities'],
    synonyms: ['operating cash flow ratio'],
  },
  {
    id: 'ebitda',
    name: 'EBITDA',
    description: 'EBITDA = operating income + depreciation and amortization (unadjusted; a non-GAAP measure).',
    inputs: ['operating_income', 'depreciation'],
    synonyms: ['ebitda'],
  },
];

const BY_ID = new Map(METRICS.map((m, i) => [m.id, i]));

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How a text is read: `statement` for filing text (the builder's tags, the chains' consensus), `question` for a
 * question, where a metric's `questionSynonyms` name it too.
 */
export type MetricReading = 'statement' | 'question';

const phrasesOf = (m: Metric, reading: MetricReading) =>
  reading === 'question' ? [...m.synonyms, ...(m.questionSynonyms ?? [])] : m.synonyms;

// One alternation per metric, words bounded; apostrophes written either way match both. The question reading shares
// the statement reading's pattern for every metric without questionSynonyms: one RegExp each, compiled once.
const patternOf = (m: Metric, reading: MetricReading) =>
  new RegExp(
    `(?<![\\w&])(?:${phrasesOf(m, reading)
      .map((s) => escapeRegExp(s).replace(/['’]/g, "['’]"))
      .join('|')})(?![\\w&])`,
    'i',
  );
const STATEMENT_PATTERNS = METRICS.map((m) => patternOf(m, 'statement'));
const PATTERNS: Record<MetricReading, RegExp[]> = {
  statement: STATEMENT_PATTERNS,
  question: METRICS.map((m, i) => (m.questionSynonyms ? patternOf(m, 'question') : STATEMENT_PATTERNS[i]!)),
};

/**
 * Per metric, the words its synonyms start with (lower case), or null when one starts with something else (tried on
 * every text). A synonym matches only where the text has its first word as a whole ASCII word: its pattern's
 * boundaries exclude letters, digits and "_" around it, and without the `u` flag a case-insensitive pattern folds no
 * other character to ASCII.
 */
const firstWordsFor = (reading: MetricReading) =>
  METRICS.map((m) => {
    const words = new Set<string>();
    for (const synonym of phrasesOf(m, reading)) {
      const first = /^[a-z0-9]+/i.exec(synonym)?.[0];
      if (!first) return null;
      words.add(first.toLowerCase());
    }
    return words;
  });
const FIRST_WORDS: Record<MetricReading, (Set<string> | null)[]> = {
  statement: firstWordsFor('statement'),
  question: firstWordsFor('question'),
};

/**
 * The metrics a text names, most specific first, as 1-based codes (0 is "no metric" in shards). A metric whose
 * match lies inside a longer match of an earlier metric ("sales" inside "cost of sales") is not counted. Only the
 * metrics one of whose synonyms starts with a word of the text are matched against it (FIRST_WORDS): the same
 * answer as trying every pattern (metricCodesTryingAll, the slow twin), without compiling and running some sixty
 * patterns per text (about 1.5 ms of a fresh isolate's first query).
 */
export function metricCodes(text: string, max = 3, reading: MetricReading = 'statement'): number[] {
  const words = new Set<string>();
  for (const w of text.match(/[a-z0-9]+/gi) ?? []) words.add(w.toLowerCase());
  return matchMetrics(text, max, PATTERNS[reading], (i) => {
    const first = FIRST_WORDS[reading][i];
    if (!first) return true;
    for (const w of first) if (words.has(w)) return true;
    return false;
  });
}

/** metricCodes trying every metric's pattern on the text (the slow twin of its first-word filter). */
export function metricCodesTryingAll(text: string, max = 3, reading: MetricReading = 'statement'): number[] {
  return matchMetrics(text, max, PATTERNS[reading], () => true);
}

function matchMetrics(
  text: string,
  max: number,
  patterns: readonly RegExp[],
  mayMatch: (metric: number) => boolean,
): number[] {
  const out: number[] = [];
  const taken: [number, number][] = [];
  for (let i = 0; i < patterns.length && out.length < max; i++) {
    if (!mayMatch(i)) continue;
    const m = patterns[i]!.exec(text);
    if (!m) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (taken.some(([a, b]) => start >= a && end <= b)) continue;
    taken.push([start, end]);
    out.push(i + 1);
  }
  return out;
}

/** The metric with 1-based code `code`, or null for 0/unknown. */
export function metricByCode(code: number): Metric | null {
  return METRICS[code - 1] ?? null;
}

export function metricCode(id: string): number {
  const i = BY_ID.get(id);
  return i === undefined ? 0 : i + 1;
}

/**
 * Table groups whose rows reconcile to a metric without being it: "Adjustments to reconcile net income to net cash
 * provided by operating activities: Stock-based compensation" names cash from operations in its group only.
 */
export const RECONCILING_GROUP =
  /^(?:[^:]*\b)?(?:adjustments to reconcile|reconciliation of|reconciling items|changes in)\b[^:]*:/i;
