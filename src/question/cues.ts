import { tokenize } from '../../index-format/tokenize';

/**
 * The service's cue vocabularies, in one place: words and phrases that say how a question is asked or what shape it
 * has, as opposed to what it is about. Each entry carries an example sentence written for this project, and
 * test/unit/cues.test.ts checks that the example exercises the entry (its word is in the example, its pattern
 * matches it), so every entry shows the kind of question it is for. An entry belongs here only when questions of
 * that kind are asked in general; none exists because a benchmark question happens to be worded that way.
 */
export interface Cue {
  /** A word (word lists) or a regular-expression alternative (pattern lists). */
  cue: string;
  example: string;
}

/**
 * Words of how a question is asked, not of what it asks about, plus units every table row carries. In filings they
 * match boilerplate (auditor letters, table captions), so as query terms they pull noise above the answering row
 * (src/question/terms.ts). Content words (cash, margin, ratio, segment...) never go here.
 */
export const PHRASING_WORDS: readonly Cue[] = [
  { cue: 'answer', example: 'Answer from the 10-K: what did the company pay in dividends?' },
  { cue: 'round', example: 'Round the gross margin to one decimal place.' },
  { cue: 'decimal', example: 'Give the ratio to two decimal places.' },
  { cue: 'place', example: 'Express the growth rate to one decimal place.' },
  { cue: 'please', example: 'Please find the number of employees at year end.' },
  { cue: 'question', example: 'To answer the question, use the segment table.' },
  { cue: 'explain', example: 'Explain what drove the change in operating income.' },
  { cue: 'provided', example: 'Using the figures provided in the annual report, compute free cash flow.' },
  { cue: 'provide', example: 'Provide the long-term debt balance at the end of fiscal 2022.' },
  { cue: 'calculate', example: 'Calculate the current ratio for the latest fiscal year.' },
  { cue: 'calculated', example: 'What is the payout ratio, calculated as dividends over net income?' },
  { cue: 'using', example: 'Using the balance sheet, what were total current liabilities?' },
  { cue: 'use', example: 'Use the cash flow statement to find capital spending.' },
  { cue: 'based', example: 'Based on the income statement, did operating margin improve?' },
  { cue: 'shown', example: 'From the figures shown in the segment note, which segment grew fastest?' },
  { cue: 'show', example: 'Show the inventory balance for the last two years.' },
  { cue: 'give', example: 'Give the effective tax rate for fiscal 2023.' },
  { cue: 'response', example: 'Keep the response to the reported figure for research and development expense.' },
  { cue: 'relying', example: 'Relying on the statement of cash flows, what was depreciation?' },
  { cue: 'rely', example: 'Rely on the 10-Q only: what were net sales in the quarter?' },
  { cue: 'detail', example: 'With the detail in the debt footnote, when does the term loan mature?' },
  { cue: 'information', example: 'With the information in the filing, how many stores were open?' },
  { cue: 'state', example: 'State the share repurchase amount for the year.' },
  { cue: 'following', example: 'Answer the following: what was the backlog at year end?' },
  { cue: 'like', example: 'I would like the total revenue of the services segment.' },
  { cue: 'only', example: 'Only the audited figure, please: net income for fiscal 2021.' },
  { cue: 'assume', example: 'Assume the fiscal year ends in June; what was the quarter’s revenue?' },
  { cue: 'utilizing', example: 'Utilizing the balance sheet, compute working capital.' },
  { cue: 'utilize', example: 'Utilize the segment note to find operating income by region.' },
  { cue: 'reported', example: 'What reported revenue did the company have in fiscal 2020?' },
  { cue: 'report', example: 'Report the diluted share count for the year.' },
  { cue: 'much', example: 'How much cash did operations generate?' },
  { cue: 'many', example: 'How many employees did the company have?' },
  { cue: 'usd', example: 'Total assets in USD millions at the end of fiscal 2022.' },
  { cue: 'million', example: 'Revenue in million dollars for the last fiscal year.' },
  { cue: 'billion', example: 'Was long-term debt above one billion dollars?' },
  { cue: 'thousand', example: 'Dividends paid, in thousand dollars, for 2021.' },
  { cue: 'amount', example: 'What amount of goodwill was recorded?' },
  { cue: 'company', example: 'Did the company buy back shares in 2022?' },
  { cue: 'metric', example: 'Which metric best shows liquidity: current ratio or quick ratio?' },
  { cue: 'statement', example: 'From the income statement, what was cost of sales?' },
  { cue: 'sheet', example: 'From the balance sheet, what were total assets?' },
];

/**
 * Capitalized words in questions that are not tickers even when a company trades under them (Gartner is IT):
 * financial abbreviations, question words written in capitals, item and form words, Roman numerals. Each example
 * names several (src/filters/infer.ts findCompanies).
 */
export const NOT_TICKERS: readonly Cue[] = [
  { cue: 'AI API ADR ARPU', example: 'Did AI products, API revenue or ADR holders change ARPU?' },
  { cue: 'ASC ASU AUM BPS', example: 'Under ASC 842 and ASU 2016-02, how did AUM move in BPS?' },
  { cue: 'CAGR CAPEX CCC DIO DPO DSO', example: 'What were the CAGR of CAPEX and the CCC from DIO, DPO and DSO?' },
  { cue: 'ROCE WACC RPO ROTCE DPS', example: 'How did ROCE, WACC, RPO, ROTCE and DPS change?' },
  { cue: 'DAU MAU DAP MAP ARR NRR LTV', example: 'Report DAU, MAU, DAP, MAP, ARR, NRR and LTV for the year.' },
  {
    cue: 'OPEX SKU CEO CFO COGS COO CPI CTO',
    example: 'Did OPEX per SKU rise while the CEO, CFO, COO and CTO cut COGS as CPI rose?',
  },
  {
    cue: 'DCF DOJ EBIT EBITDA EBT EPA EPS ESG ETF EU',
    example:
      'After the DOJ and EPA settlements, what were EBIT, EBITDA, EBT, EPS, ESG spending, ETF flows, EU ' +
      'sales and the DCF value?',
  },
  {
    cue: 'FASB FCC FCF FDA FERC FIFO FTC FX FY',
    example: 'Did FASB, FCC, FDA, FERC or FTC rules, FIFO costing or FX change FCF in FY 2023?',
  },
  {
    cue: 'GAAP GDP GHG HR IFRS IPO IRS ISO IT',
    example:
      'How do GAAP and IFRS treat IPO costs, IRS audits, ISO certification, IT and HR spending, GDP and GHG goals?',
  },
  {
    cue: 'KPI LIBOR LIFO LLC LTD LTM NAV NOL NYSE',
    example:
      'Which KPI moved with LIBOR, LIFO reserves, the LLC and LTD units, LTM sales, NAV, NOL carryforwards ' +
      'and the NYSE listing?',
  },
  {
    cue: 'OCF OEM OTC PCAOB PLC PP PPE PSC QOQ',
    example: 'How did OCF, OEM and OTC sales, PCAOB findings, the PLC parent, PP and PPE, PSC costs change QOQ?',
  },
  {
    cue: 'ROA ROE ROI ROIC SEC SG SOFR TTM',
    example: 'What were ROA, ROE, ROI and ROIC, SEC filings, SG and A, SOFR-based interest and TTM revenue?',
  },
  { cue: 'UK US USA USD VAT YOY YTD', example: 'How did UK, US and USA sales in USD, net of VAT, change YOY and YTD?' },
  {
    cue: 'ALL AND ARE FOR HOW NET NOT THE WAS',
    example: 'HOW WAS NET INCOME FOR ALL THE SEGMENTS AND ARE THEY NOT UP?',
  },
  { cue: 'WHAT WHEN WHICH WHY WHO DID DOES', example: 'WHAT DID IT EARN, WHEN, WHICH UNIT, WHY, WHO DOES IT SELL TO?' },
  {
    cue: 'ITEM PART FORM TOTAL INC CORP CO',
    example: 'In ITEM 7 of PART II of FORM 10-K, what was TOTAL revenue of the INC, the CORP and the CO subsidiaries?',
  },
  {
    cue: 'II III IV VI VII VIII IX XI XII',
    example: 'Summarize Parts II, III and IV and Items VI, VII, VIII, IX, XI and XII.',
  },
];

/**
 * A question about several quarters of one issuer (src/filters/infer.ts: form 10-Q): quarters are reported in
 * 10-Qs, and the annual reports' rows (one column per year) crowd them out.
 */
export const ACROSS_QUARTERS: readonly Cue[] = [
  {
    cue:
      String.raw`\b(?:the|reported|recent|past|prior|previous|successive|several|multiple|different|various` +
      String.raw`|consecutive)\s+quarters\b`,
    example: 'How did gross margin move over the past quarters?',
  },
  {
    cue: String.raw`\b(?:over|across|throughout|during|between|for|in)\s+(?:the\s+)?quarters\b`,
    example: 'Was revenue steady across quarters in fiscal 2023?',
  },
  {
    cue: String.raw`\bquarter[- ](?:to|over)[- ]quarter\b`,
    example: 'How volatile was operating income quarter-over-quarter?',
  },
  { cue: String.raw`\beach\s+quarter\b`, example: 'What was net income in each quarter of 2022?' },
];

/**
 * A question about change across filings of one issuer (src/plan/periods.ts): one pass per filing, since one ranked
 * list returns the best-matching filing's rows several times and the other periods' figures not at all.
 */
export const ACROSS_PERIODS: readonly Cue[] = [
  {
    cue:
      String.raw`\b(?:over|across|throughout|during|between|in)\s+(?:the\s+)?(?:(?:reported|reporting|recent|last` +
      String.raw`|past|several|multiple|different|various|successive|prior|previous)\s+)?(?:quarters|periods` +
      String.raw`|10-?qs|quarterly reports|reports|filings)\b`,
    example: 'How did the cash balance change over the last quarterly reports?',
  },
  { cue: String.raw`\bover time\b`, example: 'How has the debt mix changed over time?' },
  { cue: String.raw`\bquarter[- ](?:to|over)[- ]quarter\b`, example: 'Did services revenue grow quarter to quarter?' },
  { cue: String.raw`\btrend(?:s|ed|ing)?\b`, example: 'How have research costs trended?' },
  { cue: String.raw`\bfluctuat\w*`, example: 'Did the tax rate fluctuate much?' },
  { cue: String.raw`\bevolv\w*|\bevolution\b`, example: 'How has the product mix evolved?' },
];

/**
 * Words of a question that looks forward (src/filters/infer.ts: the year before, where the outlook was stated, is
 * admitted).
 */
export const FORWARD_LOOKING: readonly Cue[] = [
  { cue: 'expects?', example: 'What capital spending does the company expect for 2024?' },
  { cue: 'expected', example: 'What was the expected tax rate for the next year?' },
  { cue: 'expectations?', example: 'What were management’s expectations for margins?' },
  { cue: String.raw`anticipat\w*`, example: 'Which store openings were anticipated for 2023?' },
  { cue: String.raw`forecast\w*`, example: 'What production rate was forecast for next year?' },
  { cue: 'guidance', example: 'What revenue guidance was given for fiscal 2024?' },
  { cue: 'outlook', example: 'What was the outlook for the cloud segment?' },
  { cue: 'plans? to', example: 'How many stores does it plan to open?' },
  { cue: 'planned', example: 'What planned acquisitions were disclosed?' },
  { cue: 'will', example: 'Will the company pay a dividend in 2024?' },
  { cue: 'projected', example: 'What was the projected pension contribution?' },
  { cue: 'projections?', example: 'What projections of capital spending were made?' },
  { cue: 'targets?', example: 'What leverage target did management set?' },
];

/** A question that sets things side by side (src/question/analyze.ts: shape `comparison`). */
export const COMPARISON: readonly Cue[] = [
  {
    cue: String.raw`\bcompar(?:e|ed|es|ing|ison|isons)\b`,
    example: 'Compare the two segments’ operating income in fiscal 2022.',
  },
  { cue: String.raw`\bversus\b|\bvs\.?(?!\w)`, example: 'Domestic versus international sales: which grew faster?' },
  { cue: String.raw`\brelative to\b`, example: 'How large is the backlog relative to annual revenue?' },
  {
    cue: String.raw`\b(?:higher|lower|larger|smaller|faster|slower) than\b`,
    example: 'Was capital spending higher than depreciation?',
  },
];

/**
 * A question about why something changed (src/question/analyze.ts): management's discussion explains changes
 * (Regulation S-K Item 303), the business description does not, so such a question gets no business-description
 * preference.
 */
export const CAUSAL: readonly Cue[] = [
  { cue: String.raw`\bwhy\b`, example: 'Why did the company close its European plants?' },
  { cue: String.raw`\bdr(?:o|i)ve(?:s|n)?\b|\bdrivers?\b`, example: 'What drove the increase in customer churn?' },
  { cue: String.raw`\breasons?\b`, example: 'What reasons did management give for the restructuring?' },
  {
    cue: String.raw`\bcaus(?:e|es|ed|ing)\b|\bdue to\b|\battribut(?:e|ed|able)\b`,
    example: 'What caused the delay in the plant opening?',
  },
];

/**
 * A question that asks for a number even when it names no metric of the vocabulary (src/question/analyze.ts: `lookup`).
 */
export const NUMERIC_ASK: readonly Cue[] = [
  { cue: String.raw`\bhow (?:much|many)\b`, example: 'How many employees did the company have at year end?' },
  {
    cue: String.raw`\b(?:amount|number|total|value|balance|percentage|percent|rate|ratio)\s+of\b`,
    example: 'What was the balance of goodwill at the end of the year?',
  },
  {
    cue: String.raw`\bin (?:usd|us\$|\$|dollars|millions|billions|thousands)\b`,
    example: 'What were lease liabilities in millions at year end?',
  },
  { cue: '%', example: 'By what % did backlog grow?' },
  {
    cue: String.raw`\b(?:spen[dt]|spending|paid|pays?|costs?|charged?)\b`,
    example: 'What did the company spend on new distribution centers?',
  },
];

/** Entries as one case-insensitive pattern, alternatives in order. */
export function cuePattern(cues: readonly Cue[], wrap = (alternation: string) => alternation): RegExp {
  return new RegExp(wrap(cues.map((c) => c.cue).join('|')), 'i');
}

/** Word entries (several words per entry allowed, space-separated), as the analyzer stems them. */
export function cueTerms(cues: readonly Cue[]): Set<string> {
  return new Set(cues.flatMap((c) => tokenize(c.cue)));
}

/** Capitalized entries, as written. */
export function cueWords(cues: readonly Cue[]): Set<string> {
  return new Set(cues.flatMap((c) => c.cue.split(/\s+/)));
}
