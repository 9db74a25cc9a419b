import type { CatalogCompany, CatalogEntity, CatalogHeader } from '../format/types';
import { metricByCode } from '../text/metrics';
import { entityMatcher, type EntityMatcher } from './entities';
import type { Chain } from './model';

/**
 * Glossary entities for the metrics the chains' entries are tagged with (the builder's metric vocabulary), in
 * first-mention order: "Capital expenditure" -> "Capital expenditure = purchases of property, plant and equipment".
 */
export function metricEntities(chains: readonly Chain[]): { name: string; description: string }[] {
  const seen = new Set<number>();
  const out: { name: string; description: string }[] = [];
  for (const c of chains) {
    for (const e of c.entries) {
      if (!e.metric || seen.has(e.metric)) continue;
      seen.add(e.metric);
      const m = metricByCode(e.metric);
      if (m) out.push({ name: m.name, description: m.description });
    }
  }
  return out;
}

const matchers = new WeakMap<CatalogCompany, EntityMatcher>();

function matcherOf(company: CatalogCompany): EntityMatcher {
  let m = matchers.get(company);
  if (!m) matchers.set(company, (m = entityMatcher((company.entities ?? []).map((e) => e.name))));
  return m;
}

/**
 * Segments, products and counterparties (catalog entities) that the returned entries mention, per issuer: an
 * entry's text is matched against the entities of the issuer whose filing states it (its first source), with the
 * builder's matcher, so the glossary lists exactly the names the chains contain. In first-mention order.
 */
export function mentionedEntities(catalog: CatalogHeader, chains: readonly Chain[]): Map<string, CatalogEntity[]> {
  const byTicker = new Map<string, Set<number>>();
  const companies = new Map(catalog.companies.map((c) => [c.ticker, c]));
  for (const c of chains) {
    for (const e of c.entries) {
      const first = e.sources[0];
      const ticker = first ? catalog.sources[first.source]?.meta.sec_ticker : null;
      const company = ticker ? companies.get(ticker) : undefined;
      if (!company?.entities?.length) continue;
      const found = byTicker.get(company.ticker) ?? new Set<number>();
      byTicker.set(company.ticker, found);
      for (const i of matcherOf(company).mentioned(e.consensus)) found.add(i);
    }
  }
  const out = new Map<string, CatalogEntity[]>();
  for (const [ticker, found] of byTicker) {
    if (found.size) out.set(ticker, [...found].map((i) => companies.get(ticker)!.entities![i]!));
  }
  return out;
}
