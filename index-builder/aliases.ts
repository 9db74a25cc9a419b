const CORPORATE_SUFFIXES = /\b(?:incorporated|inc|corporation|corp|company|co|plc|ltd|limited|holdings?|group|the)\b\.?/gi;

/**
 * Lower-case names a question may use for a company: the full name, the name without corporate suffixes and
 * punctuation, and the ticker. Used for filter aliases and for inferring companies from query text.
 */
export function companyAliases(company: string, ticker: string): string[] {
  const lower = company.toLowerCase().normalize('NFKC');
  const bare = lower.replace(/[.,]/g, ' ').replace(CORPORATE_SUFFIXES, ' ').replace(/\s+/g, ' ').trim();
  const noAmp = bare.replace(/\s*&\s*/g, ' and ');
  return [...new Set([lower, bare, noAmp, ticker.toLowerCase()].filter((a) => a.length >= 2))].sort();
}
