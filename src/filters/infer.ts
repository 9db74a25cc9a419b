import type { CatalogHeader } from '../format/types';
import type { FilterField } from './fields';
import type { Condition } from './parse';

export interface InferredFilters {
  conditions: Condition[];
  warnings: string[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Infers filters from question text (research and agentic modes): companies by name or ticker, fiscal years,
 * and the form type when the question names it. A field the caller already filtered is never inferred, so an
 * inferred filter can narrow but never contradict the caller's.
 */
export function inferFilters(query: string, catalog: CatalogHeader, callerFields: ReadonlySet<FilterField>): InferredFilters {
  const conditions: Condition[] = [];
  const warnings: string[] = [];
  const lower = ` ${query.toLowerCase().normalize('NFKC')} `;

  if (!callerFields.has('sec_ticker')) {
    const tickers: string[] = [];
    for (const c of catalog.companies) {
      const byAlias = c.aliases.some((a) => a !== c.ticker.toLowerCase() && new RegExp(`[^\\p{L}\\p{N}]${escapeRegExp(a)}(?:'s|’s)?[^\\p{L}\\p{N}]`, 'u').test(lower));
      // Tickers only when written in capitals, so "on", "all" or "key" in prose never pick a company.
      const byTicker = c.ticker.length >= 2 && new RegExp(`(?:^|[^A-Za-z0-9])${escapeRegExp(c.ticker)}(?:'s|’s)?(?:$|[^A-Za-z0-9])`).test(query);
      if (byAlias || byTicker) tickers.push(c.ticker);
    }
    if (tickers.length) conditions.push({ field: 'sec_ticker', op: 'in', values: tickers.sort() });
  }

  if (!callerFields.has('sec_fiscal_year')) {
    const years = new Set<string>();
    for (const m of query.matchAll(/\b(?:FY|fiscal(?:\s+year)?)\s*-?\s*'?(\d{4}|\d{2})\b/gi)) {
      const y = m[1]!.length === 2 ? `20${m[1]}` : m[1]!;
      years.add(`FY-${y}`);
    }
    for (const m of query.matchAll(/\b((?:19|20)\d{2})\b/g)) years.add(`FY-${m[1]}`);
    if (years.size) {
      const known = catalog.field_values.sec_fiscal_year;
      const present = [...years].filter((y) => known[y]);
      const absent = [...years].filter((y) => !known[y]);
      if (absent.length) warnings.push(`No filings for ${absent.join(', ')} in the index; those periods were not used as filters.`);
      if (present.length) conditions.push({ field: 'sec_fiscal_year', op: 'in', values: present.sort() });
    }
  }

  if (!callerFields.has('sec_form_type')) {
    const tenK = /\b10-?k\b|\bannual report\b/i.test(query);
    const tenQ = /\b10-?q\b|\bquarterly report\b/i.test(query);
    if (tenK !== tenQ) conditions.push({ field: 'sec_form_type', op: 'eq', values: [tenK ? '10-K' : '10-Q'] });
  }
  return { conditions, warnings };
}
