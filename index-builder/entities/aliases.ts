const CORPORATE_SUFFIXES =
  /\b(?:incorporated|inc|corporation|corp|company|co|plc|ltd|limited|holdings?|group|the)\b\.?/gi;

// First words shared by many company names or common in prose; never used alone as an alias.
const COMMON_FIRST_WORDS = new Set(
  (
    'american general first united international national global north south east west western eastern ' +
    'southern northern central pacific atlantic federal public state royal advanced applied digital energy ' +
    'capital financial health medical power southwest consolidated'
  ).split(' '),
);

/**
 * Lower-case names a question may use for a company: the full name, the name without corporate suffixes and
 * punctuation, and the ticker. Used for filter aliases and for inferring companies from query text.
 */
export function companyAliases(company: string, ticker: string): string[] {
  const lower = company.toLowerCase().normalize('NFKC');
  const bare = lower.replace(/[.,]/g, ' ').replace(CORPORATE_SUFFIXES, ' ').replace(/\s+/g, ' ').trim();
  const noAmp = bare.replace(/\s*&\s*/g, ' and ');
  // The first word alone ("quillvale", "pfizer") when it is distinctive enough not to name other things.
  const words = bare.split(' ');
  const first = words.length > 1 && words[0]!.length >= 5 && !COMMON_FIRST_WORDS.has(words[0]!) ? [words[0]!] : [];
  return [...new Set([lower, bare, noAmp, ticker.toLowerCase(), ...first].filter((a) => a.length >= 2))].sort();
}

/**
 * Drops every alias two or more companies share ("johnson" would name both Johnson & Johnson and Johnson Controls):
 * a question that uses it names neither for sure, and the full names still match. Applied to the directory's
 * companies, which question matching reads; an issuer's own entity matching keeps its aliases, so its artifacts do
 * not depend on which other companies are indexed.
 */
export function withoutSharedAliases<T extends { aliases: string[] }>(companies: readonly T[]): T[] {
  const count = new Map<string, number>();
  for (const c of companies) for (const a of new Set(c.aliases)) count.set(a, (count.get(a) ?? 0) + 1);
  return companies.map((c) =>
    c.aliases.some((a) => count.get(a)! > 1) ? { ...c, aliases: c.aliases.filter((a) => count.get(a) === 1) } : c,
  );
}
