import { encodeDirectory, encodeIssuerTable, encodeTermBlock } from '../../index-format/codec';
import { NO_VECTOR } from '../../index-format/types';
import type {
  CatalogHeader,
  Directory,
  EmbeddingModel,
  IssuerFiling,
  IssuerItem,
  IssuerTable,
  Lexicon,
  TermBlock,
} from '../../index-format/types';
import { issuerFile, termBlockFile, termBlockOf } from '../../index-format/views';
import { contentIdOf } from '../../index-format/keys';
import { seal, sha256 } from './seal';

/**
 * Splits the builder's corpus-wide tables into the partitioned artifacts the Worker reads by part
 * (docs/DECISIONS.md "Partitioned index"): the directory, one table per issuer and hash-partitioned term blocks.
 */

/** Target size of a term block: a query reads one block per term, so small blocks keep cold reads small. */
export const TERM_BLOCK_TARGET_BYTES = 4 * 1024;

/** The builder's whole lexicon: every term's full shard list (the term blocks cap them). */
export type CorpusLexicon = Omit<Lexicon, 'termIndex' | 'byteSize' | 'restImpact'>;

/**
 * Shards listed per term in a term block, at most: the ones where the term's impact bound is highest; the others
 * share one bound, the highest left out (`restImpact`). A term found in every shard would otherwise list every
 * shard, and its block would grow with the corpus (14 KB at 1x, 23 KB at 4x for the largest block); with the cap
 * a block's size depends on how many terms it holds, not on how many shards there are. Routing adds the rest bound
 * for unlisted shards, so it stays an upper bound: such terms (in most shards, hence of low weight) then barely
 * separate shards, which their low idf already made true.
 */
export const MAX_SHARDS_PER_TERM = 256;

/** A term's listed shards (ascending) and impacts, and the bound for the rest: the cap above applied. */
function cappedShards(lexicon: CorpusLexicon, t: number): { ids: Uint16Array; impacts: Uint8Array; rest: number } {
  const a = lexicon.shardOffsets[t]!;
  const b = lexicon.shardOffsets[t + 1]!;
  if (b - a <= MAX_SHARDS_PER_TERM)
    return { ids: lexicon.shardIds.subarray(a, b), impacts: lexicon.shardImpact.subarray(a, b), rest: 0 };
  const order = Array.from({ length: b - a }, (_, k) => a + k).sort(
    (x, y) => lexicon.shardImpact[y]! - lexicon.shardImpact[x]! || lexicon.shardIds[x]! - lexicon.shardIds[y]!,
  );
  const kept = order.slice(0, MAX_SHARDS_PER_TERM).sort((x, y) => lexicon.shardIds[x]! - lexicon.shardIds[y]!);
  return {
    ids: Uint16Array.from(kept, (p) => lexicon.shardIds[p]!),
    impacts: Uint8Array.from(kept, (p) => lexicon.shardImpact[p]!),
    rest: lexicon.shardImpact[order[MAX_SHARDS_PER_TERM]!]!,
  };
}

/** Bytes a term takes in its block (postings, statistics, vector), to size the block count. */
function termBytes(lexicon: CorpusLexicon, t: number, hasVector: boolean, dim: number): number {
  const postings = Math.min(MAX_SHARDS_PER_TERM, lexicon.shardOffsets[t + 1]! - lexicon.shardOffsets[t]!);
  return lexicon.terms[t]!.length + 3 + 13 + postings * 3 + (hasVector ? dim + 4 : 0);
}

export function termBlocks(
  lexicon: CorpusLexicon,
  model: Omit<EmbeddingModel, 'vocabIndex' | 'byteSize'>,
): { blocks: number; files: [string, Uint8Array][] } {
  const dim = model.dim;
  const vocabRow = new Map(model.vocab.map((w, i) => [w, i]));
  let total = 0;
  lexicon.terms.forEach((term, t) => {
    total += termBytes(lexicon, t, vocabRow.has(term), dim);
  });
  const blocks = Math.max(1, Math.ceil(total / TERM_BLOCK_TARGET_BYTES));
  const members: number[][] = Array.from({ length: blocks }, () => []);
  // lexicon.terms is sorted, so each block's terms come out sorted too.
  lexicon.terms.forEach((term, t) => {
    members[termBlockOf(term, blocks)]!.push(t);
  });
  const files: [string, Uint8Array][] = members.map((ids, block) => {
    const n = ids.length;
    const df = new Uint32Array(n);
    const shardOffsets = new Uint32Array(n + 1);
    const restImpact = new Uint8Array(n);
    const lists = ids.map((t) => cappedShards(lexicon, t));
    let postings = 0;
    ids.forEach((t, i) => {
      df[i] = lexicon.df[t]!;
      shardOffsets[i] = postings;
      postings += lists[i]!.ids.length;
      restImpact[i] = lists[i]!.rest;
    });
    shardOffsets[n] = postings;
    const shardIds = new Uint16Array(postings);
    const shardImpact = new Uint8Array(postings);
    const vectorRow = new Uint32Array(n).fill(NO_VECTOR);
    const rows: number[] = [];
    ids.forEach((t, i) => {
      shardIds.set(lists[i]!.ids, shardOffsets[i]!);
      shardImpact.set(lists[i]!.impacts, shardOffsets[i]!);
      const row = vocabRow.get(lexicon.terms[t]!);
      if (row !== undefined) {
        vectorRow[i] = rows.length;
        rows.push(row);
      }
    });
    const weights = Float32Array.from(rows, (r) => model.weights[r]!);
    const vectors = new Int8Array(rows.length * dim);
    rows.forEach((r, k) => {
      vectors.set(model.vectors.subarray(r * dim, (r + 1) * dim), k * dim);
    });
    const data: Omit<TermBlock, 'byteSize'> = {
      block,
      terms: ids.map((t) => lexicon.terms[t]!),
      df,
      shardOffsets,
      shardIds,
      shardImpact,
      restImpact,
      vectorRow,
      weights,
      vectors,
      dim,
    };
    return [termBlockFile(block), encodeTermBlock(data)];
  });
  return { blocks, files };
}

/**
 * One issuer's table from the corpus catalog: its filings once, its items, its shards, segments and entities, all
 * numbered within the issuer.
 */
function issuerTable(
  catalog: CatalogHeader,
  ticker: string,
  sourceIndexes: readonly number[],
  firstShard: number,
  shardCount: number,
  statementsPerSource: Uint32Array,
): IssuerTable {
  const filings: IssuerFiling[] = [];
  const filingOf = new Map<string, number>();
  const items: IssuerItem[] = [];
  for (const index of sourceIndexes) {
    const s = catalog.sources[index]!;
    let filing = filingOf.get(s.doc_id);
    if (filing === undefined) {
      filing = filings.length;
      filingOf.set(s.doc_id, filing);
      const { sec_item_tag: _tag, ...meta } = s.meta;
      filings.push({
        doc_id: s.doc_id,
        type: s.type,
        date: s.date,
        company: s.company,
        period_of_report: s.period_of_report,
        fiscal_period: s.fiscal_period,
        meta,
      });
    }
    items.push({
      filing,
      id: s.id,
      item_title: s.item_title,
      page_start: s.page_start,
      page_end: s.page_end,
      shard: s.shard - firstShard,
      item_tag: s.meta.sec_item_tag,
      statements: statementsPerSource[index]!,
    });
  }
  const company = catalog.companies.find((c) => c.ticker === ticker);
  return {
    ticker,
    filings,
    items,
    shards: catalog.shards.slice(firstShard, firstShard + shardCount),
    ...(company?.segments?.length ? { segments: company.segments } : {}),
    ...(company?.entities?.length ? { entities: company.entities } : {}),
  };
}

/**
 * The directory and issuer tables of a corpus catalog. Shards and sources must be numbered contiguously per issuer
 * (the builder plans them so; index-format/views.ts places an issuer's by the first number and finds a shard's issuer
 * by its range).
 */
export function issuerArtifacts(
  catalog: CatalogHeader,
  terms: Directory['terms'],
  statementsPerSource: Uint32Array,
): { directory: Directory; files: [string, Uint8Array][] } {
  const shardsOf = new Map<string, number[]>();
  catalog.shards.forEach((info, i) => {
    const ticker = info.tickers[0] ?? '';
    const list = shardsOf.get(ticker);
    if (list) list.push(i);
    else shardsOf.set(ticker, [i]);
  });
  const sourcesOf = new Map<string, number[]>();
  catalog.sources.forEach((s, i) => {
    const ticker = s.meta.sec_ticker ?? '';
    const list = sourcesOf.get(ticker);
    if (list) list.push(i);
    else sourcesOf.set(ticker, [i]);
  });
  const files: [string, Uint8Array][] = [];
  const companies: Directory['companies'] = catalog.companies.map((c) => {
    const shards = shardsOf.get(c.ticker) ?? [];
    const first = shards[0] ?? 0;
    if (shards.some((s, k) => s !== first + k)) throw new Error(`shards of ${c.ticker} are not numbered contiguously`);
    const sources = sourcesOf.get(c.ticker) ?? [];
    const firstSource = sources[0] ?? 0;
    if (sources.some((s, k) => s !== firstSource + k))
      throw new Error(`sources of ${c.ticker} are not numbered contiguously`);
    const table = issuerTable(catalog, c.ticker, sources, first, shards.length, statementsPerSource);
    // Sealed here, not only when written: its content id (the hash of the sealed bytes) goes into the directory.
    const bytes = seal(encodeIssuerTable(table));
    files.push([issuerFile(c.ticker), bytes]);
    return {
      ticker: c.ticker,
      company: c.company,
      cik: c.cik,
      sector: c.sector,
      sub_industry: c.sub_industry,
      aliases: c.aliases,
      shards: { first, fiscal_years: shards.map((s) => catalog.shards[s]!.fiscal_years[0] ?? '') },
      sources: { first: firstSource, count: sources.length },
      table: issuerFile(c.ticker),
      table_content_id: contentIdOf(sha256(bytes)),
    };
  });
  const directory: Directory = {
    domain: catalog.domain,
    schema_version: catalog.schema_version,
    analyzer_version: catalog.analyzer_version,
    built_from: catalog.built_from,
    stats: catalog.stats,
    companies,
    field_values: catalog.field_values,
    numeric_bounds: catalog.numeric_bounds,
    embedding_dim: catalog.embedding_dim,
    shard_count: catalog.shards.length,
    terms,
  };
  return { directory, files };
}

/** Every partitioned artifact of a version but the shards and graphs, the directory last (it is written last). */
export function partitionedArtifacts(
  catalog: CatalogHeader,
  statementsPerSource: Uint32Array,
  lexicon: CorpusLexicon,
  model: Omit<EmbeddingModel, 'vocabIndex' | 'byteSize'>,
): [string, Uint8Array][] {
  if (catalog.shards.length > 0xffff)
    throw new Error(`${catalog.shards.length} shards: term blocks number shards with 16 bits`);
  const { blocks, files: blockFiles } = termBlocks(lexicon, model);
  const { directory, files } = issuerArtifacts(
    catalog,
    {
      blocks,
      total_statements: lexicon.totalStatements,
      avg_len: lexicon.avgLen,
      impact_scale: lexicon.impactScale,
    },
    statementsPerSource,
  );
  return [...blockFiles, ...files, [DIRECTORY_FILE, encodeDirectory(directory)]];
}

export const DIRECTORY_FILE = 'directory.bin';

/**
 * Which artifacts are stored by content (index-format/keys.ts): the ones an incremental build reuses byte for byte, so
 * a publish skips them. The directory and term blocks change with every build and stay under the version.
 */
export const storedByContent = (file: string) => /^(shards|graphs|issuers)\//.test(file);
