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

/**
 * Where a list longer than the cap is cut, by counting impact values: `cut` the lowest impact kept, `ties` how many
 * shards at the cut are kept (the lower shards), `atCut` how many there are, `rest` the highest impact left out.
 */
function capCut(impacts: Uint8Array): { cut: number; ties: number; atCut: number; rest: number } {
  const perValue = new Uint32Array(256);
  for (let i = 0; i < impacts.length; i++) perValue[impacts[i]!]!++;
  // above: how many shards have an impact over the cut (fewer than the cap).
  let above = 0;
  let cut = 255;
  while (above + perValue[cut]! < MAX_SHARDS_PER_TERM) above += perValue[cut--]!;
  let rest = cut;
  if (above + perValue[cut]! === MAX_SHARDS_PER_TERM) {
    rest = cut - 1;
    while (!perValue[rest]) rest--;
  }
  return { cut, ties: MAX_SHARDS_PER_TERM - above, atCut: perValue[cut]!, rest };
}

/**
 * A term's listed shards and impacts, and the bound for the rest: the cap above applied to its full list (shards
 * ascending). Kept: the MAX_SHARDS_PER_TERM highest impacts, ties to the lower shard, in shard order; the rest bound is
 * the highest impact left out. Impacts are bytes, so a count per value finds the cut without sorting.
 */
export function cappedShards(
  ids: Uint16Array,
  impacts: Uint8Array,
): { ids: Uint16Array; impacts: Uint8Array; rest: number } {
  const n = ids.length;
  if (n <= MAX_SHARDS_PER_TERM) return { ids, impacts, rest: 0 };
  const { cut, rest, ties } = capCut(impacts);
  let tiesKept = ties;
  const keptIds = new Uint16Array(MAX_SHARDS_PER_TERM);
  const keptImpacts = new Uint8Array(MAX_SHARDS_PER_TERM);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const v = impacts[i]!;
    if (v > cut || (v === cut && tiesKept-- > 0)) {
      keptIds[k] = ids[i]!;
      keptImpacts[k++] = v;
    }
  }
  return { ids: keptIds, impacts: keptImpacts, rest };
}

/**
 * The same cap for a list in no particular order (several partitions' lists, concatenated), without sorting it
 * whole: the cut is found by counting, only the ties at the cut are sorted (the lower shards win them) and only the
 * kept shards are put in shard order. Equal to cappedShards of the list sorted by shard. The kept list is written
 * over the start of `ids` and `impacts` (the merge's scratch, read whole first) and returned as views of them, valid
 * until the next call: it runs once per term of the corpus, so it keeps its working space between calls.
 */
export function cappedUnordered(
  ids: Uint16Array,
  impacts: Uint8Array,
): { ids: Uint16Array; impacts: Uint8Array; rest: number } {
  const n = ids.length;
  const keys = scratch.keys;
  let k = 0;
  let rest = 0;
  if (n <= MAX_SHARDS_PER_TERM) {
    for (; k < n; k++) keys[k] = (ids[k]! << 8) | impacts[k]!;
  } else {
    const c = capCut(impacts);
    rest = c.rest;
    if (scratch.ties.length < c.atCut) scratch.ties = new Uint16Array(c.atCut * 2);
    const ties = scratch.ties.subarray(0, c.atCut);
    let t = 0;
    for (let i = 0; i < n; i++) {
      const v = impacts[i]!;
      if (v > c.cut) keys[k++] = (ids[i]! << 8) | v;
      else if (v === c.cut) ties[t++] = ids[i]!;
    }
    if (c.ties < ties.length) ties.sort();
    for (let i = 0; i < c.ties; i++) keys[k++] = (ties[i]! << 8) | c.cut;
  }
  const sorted = keys.subarray(0, k).sort();
  for (let i = 0; i < k; i++) {
    ids[i] = sorted[i]! >>> 8;
    impacts[i] = sorted[i]! & 0xff;
  }
  return { ids: ids.subarray(0, k), impacts: impacts.subarray(0, k), rest };
}

/** cappedUnordered's working space: (shard << 8 | impact) keys of the kept, and the shards tied at the cut. */
const scratch = { keys: new Uint32Array(MAX_SHARDS_PER_TERM), ties: new Uint16Array(1024) };

/**
 * The term blocks of a lexicon, filled term by term in sorted order. Where every term and every posting goes comes
 * first, from each term's string and shard count (a block holds about TERM_BLOCK_TARGET_BYTES, a term's block is
 * termBlockOf); then each term's full shard list is given once, capped, and copied in. The columns are corpus-wide
 * arrays in block order, sized exactly (a capped list is min(count, MAX_SHARDS_PER_TERM) long), and a block's are
 * views of them: a handful of arrays whatever the block count, not seven per block. A lexicon streamed from the
 * partitions (lexicon-merge.ts) and one held whole (termBlocks) give the same bytes.
 */
export class TermBlockTables {
  readonly blocks: number;
  /** Block b's terms are slots blockStart[b] to blockStart[b + 1] - 1, in term order; termAt[slot] is the term. */
  private readonly blockStart: Uint32Array;
  private readonly termAt: Uint32Array;
  private readonly slotOf: Uint32Array;
  /** A slot's postings are postingStart[slot] to postingStart[slot + 1] - 1 of shardIds and shardImpact. */
  private readonly postingStart: Uint32Array;
  private readonly shardIds: Uint16Array;
  private readonly shardImpact: Uint8Array;
  /** By slot. */
  private readonly restImpact: Uint8Array;
  private readonly vocabRow: Map<string, number>;
  private next = 0;

  /** `terms` sorted; `df` and `shardCounts` (the full list's length) by term. */
  constructor(
    private readonly terms: readonly string[],
    private readonly df: Uint32Array,
    shardCounts: Uint32Array,
    private readonly model: Omit<EmbeddingModel, 'vocabIndex' | 'byteSize'>,
  ) {
    const n = terms.length;
    const dim = model.dim;
    this.vocabRow = new Map(model.vocab.map((w, i) => [w, i]));
    const listed = (t: number) => Math.min(MAX_SHARDS_PER_TERM, shardCounts[t]!);
    let total = 0;
    for (let t = 0; t < n; t++) {
      const term = terms[t]!;
      total += term.length + 3 + 13 + listed(t) * 3 + (this.vocabRow.has(term) ? dim + 4 : 0);
    }
    this.blocks = Math.max(1, Math.ceil(total / TERM_BLOCK_TARGET_BYTES));
    const blockOf = Uint32Array.from(terms, (term) => termBlockOf(term, this.blocks));
    this.blockStart = new Uint32Array(this.blocks + 1);
    for (let t = 0; t < n; t++) this.blockStart[blockOf[t]! + 1]!++;
    for (let b = 0; b < this.blocks; b++) this.blockStart[b + 1]! += this.blockStart[b]!;
    const cursor = this.blockStart.slice(0, this.blocks);
    this.termAt = new Uint32Array(n);
    this.slotOf = new Uint32Array(n);
    for (let t = 0; t < n; t++) {
      const slot = cursor[blockOf[t]!]!++;
      this.termAt[slot] = t;
      this.slotOf[t] = slot;
    }
    this.postingStart = new Uint32Array(n + 1);
    for (let slot = 0; slot < n; slot++)
      this.postingStart[slot + 1] = this.postingStart[slot]! + listed(this.termAt[slot]!);
    this.shardIds = new Uint16Array(this.postingStart[n]!);
    this.shardImpact = new Uint8Array(this.postingStart[n]!);
    this.restImpact = new Uint8Array(n);
  }

  /** Term t's full shard list (ascending) and impacts; terms come in order, each once. */
  add(t: number, ids: Uint16Array, impacts: Uint8Array): void {
    this.addCapped(t, cappedShards(ids, impacts));
  }

  /** Term t's shard list already capped (cappedShards or cappedUnordered). */
  addCapped(t: number, list: { ids: Uint16Array; impacts: Uint8Array; rest: number }): void {
    if (t !== this.next++) throw new Error(`term ${t} given out of order`);
    const slot = this.slotOf[t]!;
    const at = this.postingStart[slot]!;
    const room = this.postingStart[slot + 1]! - at;
    if (list.ids.length !== room)
      throw new Error(`term ${t}: ${list.ids.length} shards listed, its count said ${room}`);
    this.shardIds.set(list.ids, at);
    this.shardImpact.set(list.impacts, at);
    this.restImpact[slot] = list.rest;
  }

  /** The encoded blocks, one at a time. */
  *files(): Generator<[string, Uint8Array]> {
    if (this.next !== this.terms.length) throw new Error(`${this.terms.length - this.next} terms never given`);
    for (let block = 0; block < this.blocks; block++) yield [termBlockFile(block), encodeTermBlock(this.block(block))];
  }

  /** One block's columns: views of the corpus-wide ones, and its terms' vectors and weights from the model. */
  private block(block: number): Omit<TermBlock, 'byteSize'> {
    const { dim } = this.model;
    const [s0, s1] = [this.blockStart[block]!, this.blockStart[block + 1]!];
    const [p0, p1] = [this.postingStart[s0]!, this.postingStart[s1]!];
    const terms: string[] = [];
    const df = new Uint32Array(s1 - s0);
    const shardOffsets = new Uint32Array(s1 - s0 + 1);
    const vectorRow = new Uint32Array(s1 - s0).fill(NO_VECTOR);
    const rows: number[] = [];
    for (let slot = s0; slot < s1; slot++) {
      const t = this.termAt[slot]!;
      const term = this.terms[t]!;
      terms.push(term);
      df[slot - s0] = this.df[t]!;
      shardOffsets[slot - s0 + 1] = this.postingStart[slot + 1]! - p0;
      const row = this.vocabRow.get(term);
      if (row !== undefined) {
        vectorRow[slot - s0] = rows.length;
        rows.push(row);
      }
    }
    const vectors = new Int8Array(rows.length * dim);
    const weights = new Float32Array(rows.length);
    for (let k = 0; k < rows.length; k++) {
      const from = rows[k]! * dim;
      for (let d = 0; d < dim; d++) vectors[k * dim + d] = this.model.vectors[from + d]!;
      weights[k] = this.model.weights[rows[k]!]!;
    }
    return {
      block,
      terms,
      df,
      shardOffsets,
      shardIds: this.shardIds.subarray(p0, p1),
      shardImpact: this.shardImpact.subarray(p0, p1),
      restImpact: this.restImpact.subarray(s0, s1),
      vectorRow,
      weights,
      vectors,
      dim,
    };
  }
}

/** The term blocks of a lexicon held whole (the in-memory twin's). */
export function termBlocks(
  lexicon: CorpusLexicon,
  model: Omit<EmbeddingModel, 'vocabIndex' | 'byteSize'>,
): { blocks: number; files: [string, Uint8Array][] } {
  const { terms, shardOffsets: at } = lexicon;
  const counts = Uint32Array.from(terms, (_, t) => at[t + 1]! - at[t]!);
  const tables = new TermBlockTables(terms, lexicon.df, counts, model);
  terms.forEach((_, t) => {
    tables.add(t, lexicon.shardIds.subarray(at[t]!, at[t + 1]!), lexicon.shardImpact.subarray(at[t]!, at[t + 1]!));
  });
  return { blocks: tables.blocks, files: [...tables.files()] };
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
