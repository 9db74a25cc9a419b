/**
 * Phrases that point at a filing section, and the item tags (10-K and the 10-Q counterpart) they point at.
 * Used by filter inference as ranking preferences, never as hard filters: a figure asked "in the MD&A" is often
 * printed only in the financial statements, so a hard item filter would lose it (docs/DECISIONS.md).
 */
export interface ItemHint {
  /** Short name used in notices ("risk factors"). */
  label: string;
  pattern: RegExp;
  tags: readonly string[];
}

/**
 * The label of the hint for the financial statements section (src/question/analyze.ts drops it for a named statement).
 */
export const FINANCIAL_STATEMENTS_HINT = 'financial statements';

export const ITEM_HINTS: readonly ItemHint[] = [
  { label: 'risk factors', pattern: /\brisk[\s-]+factors?\b/i, tags: ['10K-Item-1A', '10Q-PartII-Item-1A'] },
  { label: 'unresolved staff comments', pattern: /\bunresolved staff comments?\b/i, tags: ['10K-Item-1B'] },
  { label: 'cybersecurity', pattern: /\bcyber[\s-]?security\b/i, tags: ['10K-Item-1C'] },
  {
    label: 'legal proceedings',
    pattern: /\blegal proceedings?\b|\blitigation\b|\blaw ?suits?\b/i,
    tags: ['10K-Item-3', '10Q-PartII-Item-1'],
  },
  { label: 'mine safety', pattern: /\bmine safety\b/i, tags: ['10K-Item-4'] },
  {
    label: 'share repurchases',
    pattern: new RegExp(
      String.raw`\b(?:share|stock) (?:re-?purchases?|buy-?backs?)\b|\bbuy-?backs?\b|\brepurchases? of (?:our )?` +
        String.raw`(?:common )?(?:stock|shares)\b|\bmarket for (?:the )?registrant`,
      'i',
    ),
    tags: ['10K-Item-5', '10Q-PartII-Item-2'],
  },
  {
    label: 'MD&A',
    pattern: /\bMD&A\b|\bmanagement[’']?s discussion(?: and analysis)?\b/i,
    tags: ['10K-Item-7', '10Q-PartI-Item-2'],
  },
  {
    label: 'market risk',
    pattern: /\bmarket risks?\b|\bquantitative and qualitative disclosures?\b/i,
    tags: ['10K-Item-7A', '10Q-PartI-Item-3'],
  },
  {
    label: FINANCIAL_STATEMENTS_HINT,
    pattern: new RegExp(
      String.raw`\bfinancial statements?\b|\bbalance sheets?\b|\bincome statements?\b|\bstatements? of ` +
        String.raw`(?:cash flows|operations|income|earnings|financial position)\b|\bcash[\s-]flows? statements?\b` +
        String.raw`|\bnotes to (?:the )?(?:consolidated )?financial`,
      'i',
    ),
    tags: ['10K-Item-8', '10Q-PartI-Item-1'],
  },
  {
    label: 'controls and procedures',
    pattern: /\bcontrols and procedures\b|\binternal control over financial reporting\b|\bdisclosure controls\b/i,
    tags: ['10K-Item-9A', '10Q-PartI-Item-4'],
  },
  {
    label: 'directors and governance',
    pattern: /\bcorporate governance\b|\bexecutive officers\b|\bboard of directors\b/i,
    tags: ['10K-Item-10'],
  },
  {
    label: 'executive compensation',
    pattern: /\bexecutive compensation\b|\b(?:ceo|executive) pay\b/i,
    tags: ['10K-Item-11'],
  },
  {
    label: 'security ownership',
    pattern: /\bsecurity ownership\b|\bbeneficial own(?:er|ership)\b/i,
    tags: ['10K-Item-12'],
  },
  {
    label: 'related party transactions',
    pattern: /\brelated[\s-]party transactions?\b|\bdirector independence\b/i,
    tags: ['10K-Item-13'],
  },
  { label: 'accountant fees', pattern: /\bprincipal account(?:ant|ing) fees\b|\baudit fees\b/i, tags: ['10K-Item-14'] },
];

/**
 * The section a descriptive question that names no section is about (src/question/analyze.ts): Regulation S-K Item 101
 * puts what a company is and does in the 10-K's Item 1, Business (its segments, products, markets and geographies,
 * customers, competition, acquisitions of the year). The same words recur in risk factors and MD&A, in
 * hypotheticals and in passing, and outnumber the passage that answers. A 10-Q has no such item, so the preference
 * then finds nothing to prefer.
 */
export const BUSINESS_DESCRIPTION = { label: 'business description', tags: ['10K-Item-1'] } as const;

const TEN_K_ITEM = /\bitem\s+(1[0-6]|[1-9][abc]?)\b/gi;
const TEN_Q_ITEM = /\bpart\s+(ii|i|2|1)\s*,?\s*item\s+(1a|[1-6])\b/gi;

/**
 * Item preferences named in a question: explicit items ("Item 7A", "Part II, Item 1A") and section phrases
 * ("risk factors", "MD&A"). Returns each hint's label and tags, in table order, explicit items first.
 */
export function findItemHints(query: string): { label: string; tags: string[] }[] {
  const found: { label: string; tags: string[] }[] = [];
  for (const m of query.matchAll(TEN_Q_ITEM)) {
    const part = /^(ii|2)$/i.test(m[1]!) ? 'II' : 'I';
    const tag = `10Q-Part${part}-Item-${m[2]!.toUpperCase()}`;
    found.push({ label: `Part ${part}, Item ${m[2]!.toUpperCase()}`, tags: [tag] });
  }
  if (!found.length) {
    for (const m of query.matchAll(TEN_K_ITEM)) {
      const item = m[1]!.toUpperCase();
      found.push({ label: `Item ${item}`, tags: [`10K-Item-${item}`] });
    }
  }
  for (const h of ITEM_HINTS) if (h.pattern.test(query)) found.push({ label: h.label, tags: [...h.tags] });
  return found;
}
