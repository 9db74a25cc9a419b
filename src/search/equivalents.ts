import { tokenize } from '../../index-format/tokenize';
import { stemForms } from './morphology';
import { RANKING, type StandIn, type StandIns } from './ranking';

/**
 * Words that name one thing in filings, in the usage of financial reporting: a question says "buy" or "headcount"
 * where the filing says "acquired" or "we employed". Each group is a word's inflections the analyzer does not merge
 * (it strips plurals only: "acquire", "acquired", "acquisition" stay apart) and the words accounting uses for the same
 * thing ("stockholders" and "shareholders", "borrowings" and "indebtedness"). The lexical leg scores a query term by
 * the best of its own postings and its group's, the others weighed less (RANKING.standIns.equivalent), so a
 * statement in the question's own words still ranks first.
 *
 * Written from the vocabulary of 10-K and 10-Q filings and of US GAAP (ASC 805 acquisitions, ASC 606 backlog as
 * unfilled orders, Item 1's human capital disclosure, Item 3's legal proceedings), never from a benchmark question.
 * Words with a second common meaning in filings stay out ("order" of "in order to", "cost" and "expense" of every
 * line item, "member" of the board).
 */
const GROUPS: readonly string[] = [
  'acquire acquired acquires acquiring acquisition bought buy buys merger merged',
  'divest divested divesting divestiture disposition disposal spinoff',
  'employee employed employ employs employing employment headcount workforce personnel',
  'backlog unfilled bookings',
  'subscriber subscription membership',
  'shareholder stockholder shareowner',
  'buyback repurchase repurchased repurchasing',
  'debt borrowing borrowed indebtedness',
  'lawsuit litigation suit proceeding',
  'competitor competition compete competes competing competitive rival',
  'supplier vendor',
  'customer client',
  'layoff severance',
  'headquarters headquartered',
  'impairment impaired writedown',
  'outlook guidance forecast',
  'facility plant factory',
  'grow grew growing growth',
  'decline declined declining decrease decreased',
  'spend spent spending expenditure',
];

/** Each analyzer term of a group, mapped to the other terms of its group (built once, at module load). */
const EQUIVALENTS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const group of GROUPS) {
    const terms = [...new Set(tokenize(group))];
    for (const t of terms) map.set(t, [...(map.get(t) ?? []), ...terms.filter((o) => o !== t)]);
  }
  return map;
})();

/**
 * The query terms that have stand-ins, each with them: its accounting equivalents (RANKING.standIns.equivalent) and
 * the other index forms of its Porter2 stem (src/search/morphology.ts, RANKING.standIns.stemForm), the higher weight
 * when a word is both; query terms themselves are never stand-ins. A weight of 0 turns that kind off.
 */
export function standInsOf(queryTerms: readonly string[]): Map<string, StandIn[]> {
  const asked = new Set(queryTerms);
  const { equivalent, stemForm } = RANKING.standIns;
  const out = new Map<string, StandIn[]>();
  for (const term of asked) {
    const weights = new Map<string, number>();
    const offer = (other: string, weight: number) => {
      if (weight > 0 && !asked.has(other) && weight > (weights.get(other) ?? 0)) weights.set(other, weight);
    };
    for (const other of EQUIVALENTS.get(term) ?? []) offer(other, equivalent);
    for (const other of stemForms(term)) offer(other, stemForm);
    if (weights.size)
      out.set(
        term,
        [...weights].map(([t, weight]) => ({ term: t, weight })),
      );
  }
  return out;
}

/** The stand-in terms of every query term, each once. */
export function standInTerms(standIns: StandIns): string[] {
  return [...new Set([...standIns.values()].flat().map((s) => s.term))];
}
