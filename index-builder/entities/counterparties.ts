import type { EntityCandidate } from './candidate';
import { cleanName, NAME, splitNameList } from './names';

/**
 * Counterparties: other companies (or governments) the issuer does business with, named by a pattern that states
 * the relation. Precision first: only explicit relations count.
 *  - customer: "<Name> accounted for 15% of net sales", "sales to <Name> represented 12% of revenues",
 *    "our largest customer, <Name>", "two customers—<A> and <B>—who each accounted for 13% of net revenues";
 *    "<Name>, our largest customer, represented", "<Name> is our largest customer", "... largest customers ...,
 *    with <A> accounting for 17%", "sales to <Name>, a customer of our X segment, represented 14% of";
 *  - supplier: "we rely on <Name> for", "sole/single supplier(s), <Name>", "<Name> is our sole supplier of",
 *    "purchased 50% to 75% of their merchandise from <Name>";
 *  - acquisition: "acquisition of <Name>" / "acquired <Name>" when the name carries a company suffix (Inc., Corp.,
 *    LLC, Ltd., plc, Holdings ...), which separates a company from "acquisition of property";
 *  - agreement party: "<type> agreement with <Name>" when the name carries a company or bank suffix.
 * A sentence naming a competitor ("competitors such as X") matches none of these.
 */
const SHARE =
  '(?:approximately |about |roughly |nearly |over |more than |less than ' +
  ")?(\\d+(?:\\.\\d+)?)\\s?%\\s+of\\s+(?:our |the Company[’']s |its )?((?:total |consolidated |worldwide " +
  ')?(?:net )?(?:sales|revenues?|net revenues?|operating revenues?))';
const SUFFIX =
  '(?:Inc\\.?|Incorporated|Corp\\.?|Corporation|Company|Co\\.|LLC|L\\.L\\.C\\.|Ltd\\.?|Limited|plc|PLC|N\\.A\\.' +
  '|AG|SE|S\\.A\\.|N\\.V\\.|B\\.V\\.|GmbH|Holdings|Group|L\\.P\\.|LP|Bank|Partners)';
const COMPANY = `(${NAME}(?:,?\\s+${SUFFIX})?)`;
const COMPANY_WITH_SUFFIX = `((?:${NAME})?(?:,?\\s+${SUFFIX}))`;

const ACCOUNTED = new RegExp(
  `(?:^|[^\\w])${COMPANY}(?:,?\\s+and\\s+(?:its|their)\\s+(?:affiliates|subsidiaries))?,?\\s+(?:each\\s+` +
    `|alone\\s+|individually\\s+)?(?:accounted\\s+for|represented|comprised|made ` +
    `up)\\s+${SHARE}`,
  'g',
);
const SALES_TO = new RegExp(
  `\\b(?:[Ss]ales|[Rr]evenues?|[Nn]et sales|[Nn]et ` +
    `revenues)\\s+(?:to|from)\\s+${COMPANY}(?:,?\\s+and\\s+(?:its|their)\\s+(?:affiliates|subsidiaries))?,?\\s+` +
    `(?:\\([^)]*\\)\\s+)?(?:(?:a|an|our)\\s+(?:significant\\s+|major\\s+|large\\s+)?customer\\s+[^,;]{0,80},\\s+)` +
    `?(?:represented|accounted\\s+for|were|was|comprised|totaled)\\s+${SHARE}`,
  'g',
);
const LARGEST = new RegExp(
  `\\b(?:[Oo]ur|[Ii]ts|the ` +
    `(?:Company|[Cc]orporation)[’']s)\\s+(?:single\\s+)?largest\\s+customer(?:s)?(?:\\s+was|\\s+is|,)\\s+` +
    `(?:the\\s+)?${COMPANY}`,
  'g',
);
/** "Wal-Mart Stores Inc., our largest customer, represented ..." and "<Name> is our largest customer". */
const IS_LARGEST = new RegExp(
  `(?:^|[^\\w])${COMPANY},?\\s+(?:is\\s+|was\\s+|has\\s+been\\s+)?(?:our|its|the ` +
    `Company[’']s|the)\\s+(?:single\\s+)?largest\\s+customer\\b(?!s)`,
  'g',
);
/** "... three largest customers accounted for 39% of our net revenue, with Dell Inc. accounting for 17% ...". */
const WITH_ACCOUNTING = new RegExp(
  `(?:\\bwith|,|\\band)\\s+${COMPANY}\\s+accounting\\s+for\\s+(?:approximately\\s+|about\\s+)?(\\d+(?:\\.\\d+)?)\\s?%`,
  'g',
);
/** "<Name> is our sole supplier of ...": an explicit single source. */
const IS_SOLE = new RegExp(
  `(?:^|[^\\w])${COMPANY},?\\s+(?:is|was|remains)\\s+(?:our|its|the ` +
    `Company[’']s)\\s+(?:sole|single|only|exclusive)\\s+(?:source|supplier|provider|manufacturer)\\b`,
  'g',
);
/** "purchased approximately 50% to 75% of their merchandise from <Name>": a supplier named with its share. */
const PURCHASED_SHARE = new RegExp(
  `\\bpurchas(?:e|es|ed)\\s+(?:approximately\\s+|about\\s+)?(\\d+%(?:\\s+to\\s+\\d+%)?)\\s+of\\s+(?:our|their|its` +
    `|the ` +
    `Company[’']s)\\s+([a-z][a-z ]{2,30}?)\\s+from\\s+${COMPANY}`,
  'g',
);
const CUSTOMERS_DASH = new RegExp(
  String.raw`\bcustomers\s*(?:[—–]+|,)\s*([^—–]{3,120}?)\s*(?:[—–]+|,)\s*(?:who|which|that)\s+(?:each\s+` +
    String.raw`|collectively\s+)?accounted\s+for([^.;]{0,120})`,
  'g',
);
const RELY = new RegExp(
  `\\b(?:[Ww]e|the ` +
    `Company)\\s+(?:rely|relies|depend|depends)\\s+(?:primarily\\s+|heavily\\s+|substantially\\s+)?(?:up)` +
    `?on\\s+${COMPANY}\\s+(?:for|to)\\b`,
  'g',
);
const SOLE = new RegExp(`\\b(?:sole|single)[- ]source\\s+suppliers?,?\\s+${COMPANY}`, 'g');
const ACQUIRED = new RegExp(
  `\\b(?:acquisition\\s+of|acquired|to\\s+acquire|merger\\s+with)\\s+(?:all\\s+(?:of\\s+)?the\\s+` +
    `(?:outstanding\\s+)?(?:shares|stock|equity)\\s+of\\s+)?${COMPANY_WITH_SUFFIX}`,
  'g',
);
const AGREEMENT = new RegExp(
  `\\b((?:[a-z]+\\s+){0,2})(?:agreement|arrangement|contract)\\s+with\\s+${COMPANY_WITH_SUFFIX}`,
  'g',
);

const NOT_COUNTERPARTY = new RegExp(
  '^(?:Sales|Revenue|Products?|Services?|Segment|International|Domestic|North America|Americas|Europe' +
    String.raw`|Asia|China|United States|U\.S\.|Government|Other|None|Franchises?|Consoles?)$`,
);

/** What a named share is a share of ("17% of our net revenue"). */
const SHARE_OF_REVENUE = new RegExp(
  String.raw`%\s+of\s+(?:our\s+|the Company[’']s\s+|its\s+)?((?:total\s+|consolidated\s+)?(?:net\s+)?` +
    '(?:sales|revenues?|net revenues?))',
);
const AGREEMENT_TYPE = new RegExp(
  '^(?:credit|loan|supply|wafer|license|licensing|collaboration|merger|purchase|sale|distribution' +
    '|services?|transition|settlement|lease|transportation|underwriting|program|definitive|registration' +
    '|rights|revolving|term|facility|joint|development|manufacturing|marketing|co-promotion|royalty' +
    '|repurchase|share|construction|power|tax|separation|commercial|master|framework|operating' +
    '|management|partnership|agency|dealer|exchange|indemnification|guarantee|stock|asset|option|swap' +
    '|financing|reimbursement|cooperation|strategic|alliance|research|co-development|bottling|franchise' +
    '|trademark|agreement)$',
  'i',
);

/** "Sony and Apple", "Microsoft Corporation and HP Inc." are two customers when both sides are names. */
function splitParties(raw: string): string[] {
  const parts = raw.split(/\s+and\s+(?=[A-Z0-9])/);
  if (parts.length > 1 && parts.every((p) => cleanName(p))) return parts;
  return [raw];
}

function accept(raw: string): string | null {
  // "Microsoft Corporation's" names Microsoft Corporation; "2016 Wal-Mart Stores Inc." (a year before the
  // subject, "For the year ended January 3, 2016 Wal-Mart ...") names Wal-Mart Stores Inc.
  const name = cleanName(raw.replace(/[’']s$/, '').replace(/^(?:\d[\d,.]*\s+)+(?=[A-Z])/, ''));
  if (!name || NOT_COUNTERPARTY.test(name)) return null;
  // A share of sales preceded by a product or geography word is a product line or a market, not a customer.
  if (/(?:franchises?|products?|brands?|segments?|business|region|sales|revenues?|services?|operations?)$/i.test(name))
    return null;
  return name;
}

export function counterpartyCandidates(sentence: string): EntityCandidate[] {
  const out: EntityCandidate[] = [];
  const add = (raw: string, role: string, detail: string) => {
    const name = accept(raw);
    if (name && !out.some((c) => c.name === name && c.role === role))
      out.push({ kind: 'counterparty', name, role, detail });
  };
  // "customers" must not be a list of franchises or products sharing the same wording.
  // A share of sales names a customer only in a sentence about customers ("Rigid Packaging accounted for 24% of
  // net sales" is a segment, "BNT162b2 accounted for 45%" a product).
  // So the name must carry a company suffix or follow a customer word in the sentence ("One customer, X, ...").
  const CUSTOMER_WORD = /\b(?:customers?|clients?|retailers?|distributors?|wholesalers?)\b/i;
  for (const m of sentence.matchAll(ACCOUNTED)) {
    const before = sentence.slice(0, m.index + m[0].indexOf(m[1]!));
    if (/(?:franchises?|products?|brands?|segments?|such as|including|includes?|like|the|of)\s*$/i.test(before))
      continue;
    if (!CUSTOMER_WORD.test(before) && !new RegExp(`${SUFFIX}$`).test(m[1]!.trim())) continue;
    for (const n of splitParties(m[1]!)) add(n, 'customer', `accounted for ${m[2]}% of ${m[3]}`);
  }
  for (const m of sentence.matchAll(SALES_TO))
    for (const n of splitParties(m[1]!)) add(n, 'customer', `accounted for ${m[2]}% of ${m[3]}`);
  for (const m of sentence.matchAll(LARGEST)) add(m[1]!, 'customer', 'named as the largest customer');
  for (const m of sentence.matchAll(IS_LARGEST)) {
    // "<Name>" must be the subject, not the end of a list ("competitors such as X, our largest customer" is rare,
    // but "such as"/"including" before the name marks a list of examples).
    if (/(?:such as|including|like|and|or)\s*$/i.test(sentence.slice(0, m.index + m[0].indexOf(m[1]!)))) continue;
    add(m[1]!, 'customer', 'named as the largest customer');
  }
  // Named shares after a statement about the largest customers ("our three largest customers accounted for 39% of
  // our net revenue, with Dell Inc. accounting for 17%"); without a customer word nearby it is a product's share.
  for (const m of sentence.matchAll(WITH_ACCOUNTING)) {
    const before = sentence.slice(0, m.index);
    if (!/\b(?:largest|major|significant)\s+customers\b/i.test(before)) continue;
    const of = SHARE_OF_REVENUE.exec(before)?.[1] ?? 'revenue';
    add(m[1]!, 'customer', `accounted for ${m[2]}% of ${of}`);
  }
  for (const m of sentence.matchAll(CUSTOMERS_DASH)) {
    const names = splitNameList(m[1]!);
    const of = /\bof\s+((?:[a-z]+\s+){0,3}(?:revenues?|sales|receivables))/.exec(m[2]!)?.[1];
    if (names && of)
      for (const n of names) add(n, 'customer', `one of ${names.length} customers named with their shares of ${of}`);
  }
  for (const m of sentence.matchAll(RELY)) {
    const what = /^\s*(?:for|to)\s+([^,.;]{3,60})/.exec(sentence.slice(m.index + m[0].length - 4))?.[1];
    add(m[1]!, 'supplier', what ? `the company relies on it for ${what.trim()}` : 'the company relies on it');
  }
  for (const m of sentence.matchAll(SOLE)) add(m[1]!, 'supplier', 'named as a sole or single-source supplier');
  for (const m of sentence.matchAll(IS_SOLE)) add(m[1]!, 'supplier', 'named as a sole or single-source supplier');
  for (const m of sentence.matchAll(PURCHASED_SHARE))
    add(m[3]!, 'supplier', `source of ${m[1]} of ${m[2]!.trim()} purchased`);
  for (const m of sentence.matchAll(ACQUIRED)) add(m[1]!, 'acquisition', 'acquisition named by the company');
  for (const m of sentence.matchAll(AGREEMENT)) {
    // Only words that name a kind of agreement describe it ("revolving credit", "wafer supply"); "entered into an" does
    // not.
    const words = (m[1] ?? '').trim().split(/\s+/).filter(Boolean);
    let k = words.length;
    while (k > 0 && AGREEMENT_TYPE.test(words[k - 1]!)) k--;
    const type = words.slice(k).join(' ');
    add(m[2]!, 'agreement party', `party to ${type ? `a ${type} ` : 'an '}agreement with the company`);
  }
  return out;
}
