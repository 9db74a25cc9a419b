import { mentionedEntities, metricEntities } from '../evidence/glossary';
import type { Chain } from '../evidence/model';
import { FILTER_FIELDS } from '../../index-format/fields';
import type { CatalogHeader, CatalogSource } from '../../index-format/types';
import type { EvidenceFormat } from '../schema/request';
import { escapeAttr, escapeText } from './xml';

const UNKNOWN = 'unknown';

/** Catalog source indexes cited by the chains, in first-citation order (the registry's order). */
export function citedSources(chains: readonly Chain[]): number[] {
  const seen = new Set<number>();
  for (const c of chains)
    for (const e of c.entries) for (const s of [...e.sources, ...(e.disagreements ?? [])]) seen.add(s.source);
  return [...seen];
}

function sourceAttributes(src: CatalogSource): [string, string][] {
  return [
    ['id', src.id],
    ['type', src.type],
    ['date', src.date ?? UNKNOWN],
    ...FILTER_FIELDS.filter((f) => f !== 'report_filing_date').map(
      (f) => [f, src.meta[f] ?? UNKNOWN] as [string, string],
    ),
  ];
}

/**
 * Rendered pieces, by the object they render: the token budget re-renders the evidence once per candidate chain
 * (render/evidence.ts is called with each trial selection), and the chains and sources of a trial are mostly the
 * previous trial's. Keyed weakly by the request's own objects, so they go with the request.
 */
const registryLines = new WeakMap<CatalogSource, string>();
const renderedChains = new WeakMap<Chain, string>();

function renderRegistry(catalog: CatalogHeader, sources: readonly number[]): string {
  const lines = sources.map((i) => {
    const src = catalog.sources[i]!;
    let line = registryLines.get(src);
    if (line === undefined) {
      const attrs = sourceAttributes(src)
        .map(([k, v]) => `${k}="${escapeAttr(v)}"`)
        .join(' ');
      registryLines.set(src, (line = `<source ${attrs}/>`));
    }
    return line;
  });
  return `<source_registry>\n${lines.join('\n')}\n</source_registry>`;
}

function entityElement(name: string, description: string): string {
  return `<entity>\n<name>${escapeText(name)}</name>\n<description>${escapeText(description)}</description>\n</entity>`;
}

function renderGlossary(catalog: CatalogHeader, sources: readonly number[], chains: readonly Chain[]): string {
  const tickers = [...new Set(sources.map((i) => catalog.sources[i]!.meta.sec_ticker!))];
  const mentioned = mentionedEntities(catalog, chains);
  const entities = tickers.flatMap((ticker) => {
    const c = catalog.companies.find((x) => x.ticker === ticker);
    const name = c ? `${c.company} (${ticker})` : ticker;
    const parts = [`Issuer with ticker ${ticker}`];
    if (c?.sector) parts.push(`GICS sector ${c.sector}${c.sub_industry ? `, sub-industry ${c.sub_industry}` : ''}`);
    const fyEnds = [
      ...new Set(
        sources
          .map((i) => catalog.sources[i]!)
          .filter((s) => s.meta.sec_ticker === ticker)
          .map((s) => s.meta.sec_fiscal_year_end),
      ),
    ];
    if (fyEnds.length) parts.push(`fiscal year end ${fyEnds.join(', ')} in the cited filings`);
    if (c?.segments?.length) parts.push(`business segments (latest filing): ${c.segments.join(', ')}`);
    const issuer = entityElement(name, `${parts.join('; ')}.`);
    // Then the issuer's segments, products and counterparties that the returned entries name (each description
    // says which issuer it belongs to).
    const named = (mentioned.get(ticker) ?? []).map((e) => entityElement(e.name, e.description));
    return [issuer, ...named];
  });
  // Metrics the entries are tagged with, described from the builder's metric vocabulary.
  for (const m of metricEntities(chains)) entities.push(entityElement(m.name, m.description));
  return `<entity_glossary>\n${entities.join('\n')}\n</entity_glossary>`;
}

/**
 * Where in its source an entry's statement stands: the page, whether it is a table row and, for a 10-Q, the quarter's
 * period end. The registry already gives each source's company, form, fiscal year and item, so repeating them on
 * every line would spend the caller's token budget on what the agent can look up once.
 */
function describeOccurrence(src: CatalogSource, page: number, kind: string): string {
  const quarter = src.meta.sec_form_type === '10-Q' ? `quarter ended ${src.period_of_report}; ` : '';
  return `${quarter}page ${page + 1}${kind === 'table_row' ? '; table row' : ''}`;
}

/** A chain's element; a chain belongs to one request and its catalog, so it renders the same every time. */
function renderChain(catalog: CatalogHeader, chain: Chain): string {
  let text = renderedChains.get(chain);
  if (text === undefined) renderedChains.set(chain, (text = renderChainOnce(catalog, chain)));
  return text;
}

function renderChainOnce(catalog: CatalogHeader, chain: Chain): string {
  const entries = chain.entries.map((entry) => {
    const ids = entry.sources.map((s) => catalog.sources[s.source]!.id);
    const statuses = entry.sources.map((s) => `- ${s.status} [${escapeText(catalog.sources[s.source]!.id)}]`);
    const context = entry.sources.map((s) => {
      const src = catalog.sources[s.source]!;
      return (
        `- [${escapeText(src.id)}] ` +
        `${escapeText(describeOccurrence(src, s.page, s.kind))}${s.note ? `; ${escapeText(s.note)}` : ''}`
      );
    });
    // Agreeing filings counted, not cited (a token budget): said on the last cited source's line, as every context
    // line names a source.
    if (entry.moreSources)
      context[context.length - 1] +=
        `; ${entry.moreSources} more ${entry.moreSources === 1 ? 'filing states' : 'filings state'} the same`;
    // Filings giving a different value for the same row and period: kept as context, never merged (DESIGN.md 4).
    for (const d of entry.disagreements ?? []) {
      const src = catalog.sources[d.source]!;
      context.push(
        `- [${escapeText(src.id)}] disagrees: ${escapeText(d.note ?? '')}; ` +
          `${escapeText(describeOccurrence(src, d.page, d.kind))}`,
      );
    }
    return [
      `<entry confidence_score='${entry.confidence}' sources='${escapeAttr(ids.join(', '))}'>`,
      `<observed_epistemic_statuses>\n${statuses.join('\n')}\n</observed_epistemic_statuses>`,
      `<consensus>${escapeText(entry.consensus)}</consensus>`,
      `<additional_context>\n${context.join('\n')}\n</additional_context>`,
      `</entry>`,
    ].join('\n');
  });
  return `<evidence_chain relevance_score="${chain.relevance}">\n${entries.join('\n')}\n</evidence_chain>`;
}

function renderSourceKey(catalog: CatalogHeader, sources: readonly number[]): string {
  const quote = (v: string) => (/[,"=]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = sources.map((i) => {
    const src = catalog.sources[i]!;
    const rest = sourceAttributes(src).slice(1);
    return `${escapeText(src.id)}: ${rest.map(([k, v]) => `${k}=${escapeText(quote(v))}`).join(', ')}`;
  });
  return `<source_key>\n${lines.join('\n')}\n</source_key>`;
}

/**
 * The `evidence` string: source registry, entity glossary and chains; `rendered` adds the `<source_key>` footer.
 * The registry holds exactly the sources the given chains cite, so it is regenerated whenever the selection
 * changes (the token budget re-renders after each chain).
 */
export function renderEvidence(catalog: CatalogHeader, chains: readonly Chain[], format: EvidenceFormat): string {
  const sources = citedSources(chains);
  const blocks = [
    renderRegistry(catalog, sources),
    renderGlossary(catalog, sources, chains),
    ...chains.map((c) => renderChain(catalog, c)),
  ];
  if (format === 'rendered') blocks.push(renderSourceKey(catalog, sources));
  return blocks.join('\n');
}

/** Kept here for existing imports; the text lives in render/instructions.ts. */
export { EVIDENCE_INSTRUCTIONS } from './instructions';
