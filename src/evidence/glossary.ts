import type { CatalogCompany, CatalogEntity, CatalogHeader } from '../../index-format/types';
import { metricByCode } from '../../index-format/metrics';
import { entityMatcher, segmentNeedsContext, type EntityMatcher } from '../../index-format/entities';
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

/** A matcher over every name of an issuer's entities (name and aliases), and the entity index of each name. */
interface CompanyMatcher {
  matcher: EntityMatcher;
  entityOf: number[];
}

const matchers = new WeakMap<CatalogCompany, CompanyMatcher>();

function matcherOf(company: CatalogCompany): CompanyMatcher {
  let m = matchers.get(company);
  if (!m) {
    const names: string[] = [];
    const guarded: boolean[] = [];
    const entityOf: number[] = [];
    (company.entities ?? []).forEach((e, i) => {
      for (const name of [e.name, ...(e.aliases ?? [])]) {
        names.push(name);
        guarded.push(segmentNeedsContext(e.kind, name));
        entityOf.push(i);
      }
    });
    matchers.set(company, (m = { matcher: entityMatcher(names, guarded), entityOf }));
  }
  return m;
}

/** Entity indexes (into its issuer's catalog entities) that each entry's consensus mentions. */
const entryMentions = new WeakMap<Chain['entries'][number], number[]>();
const companyMaps = new WeakMap<CatalogHeader, Map<string, CatalogCompany>>();

function companiesOf(catalog: CatalogHeader): Map<string, CatalogCompany> {
  let m = companyMaps.get(catalog);
  if (!m) companyMaps.set(catalog, (m = new Map(catalog.companies.map((c) => [c.ticker, c]))));
  return m;
}

/**
 * Segments, products and counterparties (catalog entities) that the returned entries mention, per issuer: an
 * entry's text is matched against the entities of the issuer whose filing states it (its first source), with the
 * builder's matcher, so the glossary lists exactly the names the chains contain; an entity is found by its name or
 * any alias (another spelling the filings use: "Wal-Mart Stores, Inc." for "Walmart Inc.").
 */
export function mentionedEntities(catalog: CatalogHeader, chains: readonly Chain[]): Map<string, CatalogEntity[]> {
  const byTicker = new Map<string, Set<number>>();
  const companies = companiesOf(catalog);
  for (const c of chains) {
    for (const e of c.entries) {
      const first = e.sources[0];
      const ticker = first ? catalog.sources[first.source]?.meta.sec_ticker : null;
      const company = ticker ? companies.get(ticker) : undefined;
      if (!company?.entities?.length) continue;
      const found = byTicker.get(company.ticker) ?? new Set<number>();
      byTicker.set(company.ticker, found);
      // The token budget re-renders the evidence once per candidate chain; an entry is matched only the first time.
      let ids = entryMentions.get(e);
      if (!ids) {
        const { matcher, entityOf } = matcherOf(company);
        entryMentions.set(e, (ids = matcher.mentioned(e.consensus).map((i) => entityOf[i]!)));
      }
      for (const i of ids) found.add(i);
    }
  }
  const out = new Map<string, CatalogEntity[]>();
  for (const [ticker, found] of byTicker) {
    if (found.size)
      out.set(
        ticker,
        [...found].map((i) => companies.get(ticker)!.entities![i]!),
      );
  }
  return out;
}
