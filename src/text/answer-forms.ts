/**
 * The forms an answer takes, read from a statement's own text (by the builder, stored per statement in the shard's
 * head: Shard.forms) and asked for by a question's wording (src/query/analyze.ts `asks`): a count ("we employed
 * about 22,000 people"), an amount of money ("$412 million", a row in USD), a date ("completed on December 8,
 * 2016"), a named counterparty ("Aetna Inc.", "the U.S. Government"). Ranking prefers, within what it retrieved, the
 * statement whose form is the one asked (src/evidence/chains.ts, RANKING.answerForm). Bits of one byte.
 */
import type { StatementKind } from '../format/types';

export const ANSWER_FORM = { count: 1, amount: 2, date: 4, party: 8 } as const;
export type AnswerForm = keyof typeof ANSWER_FORM;

const MONTH =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan\\.|Feb\\.|Mar\\.|' +
  'Apr\\.|Aug\\.|Sept?\\.|Oct\\.|Nov\\.|Dec\\.)';
/** Money: a currency sign before a figure, or a figure in a currency ("1.2 billion dollars", "USD 40 million"). */
const AMOUNT = /(?:[$€£¥]|\bUSD\s?|\bUS\$)\s?\d|\b\d[\d,.]*\s+(?:million|billion|thousand)?\s*(?:dollars|euros)\b/i;
/** A table row stating figures in a currency: the builder prints its unit, "(USD millions)". */
const ROW_IN_CURRENCY = /\((?:USD|EUR|GBP|JPY)\b/;
/**
 * A count: a figure of things, not of money, percent or time ("22,000 employees", "3 reportable segments",
 * "approximately 1,500 stores"); a word follows it, not a unit of money or a period.
 */
const COUNT = new RegExp(
  String.raw`(?<![$€£¥\d.,])(?!(?:19|20)\d\d\b)(?:\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)` +
    String.raw`(?!\s*(?:%|percent|million|billion|thousand|dollars|years?|months?|days?|weeks?|quarters?)\b)` +
    String.raw`\s+(?:[a-z][a-z-]*\s+){0,2}(?:[a-z]+s|people|personnel|staff)\b`,
);
/** A date a thing happened on, not a period's end: a month with its day or year, outside "ended ..." phrases. */
const DATE = new RegExp(
  String.raw`(?<!\b(?:[Ee]nded|[Ee]nding|[Aa]s of|[Tt]hrough|[Aa]t)\s)\b${MONTH}\s+(?:\d{1,2},?\s+)?(?:19|20)\d\d\b`,
);
/** A named organisation: capitalised words before a corporate form, or a government body. */
const PARTY =
  /\b(?:[A-Z][\w&.-]*\s+){1,4}(?:Inc\.?|Corporation|Corp\.|Company|LLC|L\.P\.|Ltd\.?|plc|N\.V\.|S\.A\.|AG|GmbH|Holdings)(?=\W|$)|\b(?:U\.S\.|United States|federal|state)\s+(?:Government|government|Department of [A-Z]\w+)|\bDepartment of (?:Defense|Energy|Justice|Health)\b/;

/** The answer forms a statement's text states (ANSWER_FORM bits; 0 for none). */
export function statementAnswerForms(text: string, kind: StatementKind): number {
  let forms = 0;
  if (AMOUNT.test(text) || (kind === 'table_row' && ROW_IN_CURRENCY.test(text))) forms |= ANSWER_FORM.amount;
  if (kind === 'sentence') {
    if (COUNT.test(text)) forms |= ANSWER_FORM.count;
    if (DATE.test(text)) forms |= ANSWER_FORM.date;
  }
  if (PARTY.test(text)) forms |= ANSWER_FORM.party;
  return forms;
}

/** What a question's interrogative asks for: "how many" a count, "how much" an amount, "when" a date, "who" a party. */
const ASKED: readonly [AnswerForm, RegExp][] = [
  ['count', /\bhow many\b(?!\s+times\b)|\bthe number of\b/i],
  ['amount', /\bhow much\b|\bwhat (?:was|were|is|are) the (?:dollar )?(?:amount|value|cost|price)\b/i],
  ['date', /^\s*(?:on what date|in what year|in which year)\b|\bwhen (?:did|was|were|is|will|does|do|has|had)\b/i],
  [
    'party',
    /^\s*(?:who|whom)\b|\bwho (?:is|are|was|were)\b|\bwhich (?:compan(?:y|ies)|customers?|firms?|entit(?:y|ies))\b/i,
  ],
];

export function askedAnswerForm(question: string): AnswerForm | null {
  return ASKED.find(([, re]) => re.test(question))?.[0] ?? null;
}
