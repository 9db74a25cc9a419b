import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildChains,
  confidenceOf,
  draftChains,
  materializeChain,
  textEntryTerms,
  withoutRepeatedStatements,
  type ChainDraft,
  type PendingChain,
} from '../../src/evidence/chains';
import { metricEntities } from '../../src/evidence/glossary';
import { EFFORT_LIMITS } from '../../src/search/effort';
import { RANKING } from '../../src/search/ranking';
import { tokenize } from '../../index-format/tokenize';
import { openFileIndex } from '../support/file-index';
import { shardHit as hit } from '../support/shard-hit';
import type { Hit } from '../../src/search/retrieve';
import { buildSample } from '../support/sample-build';

let sample: Awaited<ReturnType<typeof buildSample>>;
beforeAll(async () => {
  sample = await buildSample();
});
afterAll(() => sample.dispose());

const weights = (q: string) => new Map(tokenize(q).map((t) => [t, 1]));

describe('buildChains over the evidence graph', () => {
  it(`builds table fact -> MD&A sentence -> outlook from one hit and does not repeat its members in other \
chains`, () => {
    const { index, shard } = sample.shard('QVLT-FY2023');
    const row = shard.texts.findIndex((t) => t.startsWith('Net sales:') && t.includes('4,837'));
    const sentence = shard.texts.findIndex((t) => /^Net sales were \$4,837 million/.test(t));
    const hits = [hit(index, shard, row, 0.03), hit(index, shard, sentence, 0.02)];
    const chains = buildChains(
      hits,
      EFFORT_LIMITS.medium,
      weights('Quillvale net sales fiscal 2023'),
      textEntryTerms(tokenize),
      new Map([[index, shard]]),
    );
    expect(chains).toHaveLength(1);
    const texts = chains[0]!.entries.map((e) => e.consensus);
    expect(texts[0]).toContain('4,837');
    expect(texts[1]).toMatch(/^Net sales were \$4,837 million/);
    expect(texts[2]).toMatch(/expect net sales/);
    expect(metricEntities(chains).map((m) => m.name)).toContain('Revenue');
    expect(chains[0]!.relevance).toBeGreaterThan(0);
    expect(chains[0]!.relevance).toBeLessThanOrEqual(10);
  });

  it('cites every filing that states a restated figure, with High confidence', () => {
    const { index, shard } = sample.shard('ZNHF-FY2022');
    const row = shard.texts.findIndex((t) => t.startsWith('Operating income:') && t.includes('415'));
    const [chain] = buildChains(
      [hit(index, shard, row, 0.03)],
      EFFORT_LIMITS.low,
      weights('Zenharrow operating income 2022'),
      textEntryTerms(tokenize),
      new Map([[index, shard]]),
    );
    const entry = chain!.entries[0]!;
    expect(entry.sources.map((s) => sample.catalog.sources[s.source]!.id)).toEqual(
      expect.arrayContaining(['ZNHF-10K-FY2022-I8', 'ZNHF-10K-FY2023-I8']),
    );
    expect(entry.confidence).toBe('High');
  });

  it('under a token budget cites the nearest agreeing filing and counts the others, within the caller filters', () => {
    // The sample's first statement that at least two other filings restate.
    const { index, shard, row } = sample.catalog.shards
      .map((s) => sample.shard(s.id))
      .flatMap(({ index, shard }) =>
        shard.agree.map((list, row) => ({ index, shard, row, n: new Set(list.map((o) => o.source)).size })),
      )
      .find(({ n }) => n >= 2)!;
    const [draft] = draftChains(
      [hit(index, shard, row, 0.03)],
      EFFORT_LIMITS.low,
      weights(shard.texts[row]!),
      textEntryTerms(tokenize),
      new Map([[index, shard]]),
    );
    const entryOf = (citable: (source: number) => boolean, cited: number) =>
      materializeChain(draft!, new Map([[index, shard]]), citable, cited).entries[0]!;
    const all = entryOf(() => true, Infinity);
    const own = all.sources[0]!.source;
    const agreeing = all.sources.slice(1).map((s) => s.source);
    expect(agreeing.length).toBeGreaterThanOrEqual(2);
    expect(all.moreSources).toBeUndefined();
    const nearest = (list: number[]) => [...list].sort((a, b) => Math.abs(a - own) - Math.abs(b - own) || a - b)[0]!;

    const budgeted = entryOf(() => true, RANKING.agreeingSourcesCited);
    expect(budgeted.sources.map((s) => s.source)).toEqual([own, nearest(agreeing)]);
    expect(budgeted.moreSources).toBe(agreeing.length - 1);
    expect(budgeted.confidence).toBe(all.confidence);

    // A caller filter that excludes the nearest: the next one is cited, and the excluded one is not even counted.
    const excluded = nearest(agreeing);
    const filtered = entryOf((source) => source !== excluded, RANKING.agreeingSourcesCited);
    const rest = agreeing.filter((s) => s !== excluded);
    expect(filtered.sources.map((s) => s.source)).toEqual([own, nearest(rest)]);
    expect(filtered.moreSources ?? 0).toBe(rest.length - 1);
  });

  it('keeps a disagreeing restatement apart and lowers confidence', () => {
    const { index, shard } = sample.shard('ZNHF-FY2022');
    const row = shard.texts.findIndex((t) => t.startsWith('Cost of sales:') && t.includes('2,944'));
    const [chain] = buildChains(
      [hit(index, shard, row, 0.03)],
      EFFORT_LIMITS.low,
      weights('Zenharrow cost of sales 2022'),
      textEntryTerms(tokenize),
      new Map([[index, shard]]),
    );
    const entry = chain!.entries[0]!;
    expect(entry.disagreements!.map((s) => sample.catalog.sources[s.source]!.id)).toContain('ZNHF-10K-FY2023-I8');
    expect(entry.sources.map((s) => sample.catalog.sources[s.source]!.id)).not.toContain('ZNHF-10K-FY2023-I8');
    expect(entry.confidence).not.toBe('High');
  });
});

describe('buildChains ranking of a named row', () => {
  const bare = (source: number, text: string, fused: number, namedRow: boolean): Hit => ({
    shard: 0,
    local: source,
    text,
    source,
    page: 1,
    kind: namedRow ? 'table_row' : 'sentence',
    status: 'FACT',
    fused,
    lexical: fused,
    cosine: 1,
    namedRow,
    statement: 0,
  });

  it('puts the row that states the named figure before prose of equal (clamped) relevance that fused higher', () => {
    const prose = bare(1, 'Operating cash flows used for operating leases were small.', 0.03, false);
    const row = bare(
      2,
      'Net cash provided by operating activities: 3,393 for nine months ended October 30, 2022',
      0.02,
      true,
    );
    const chains = buildChains(
      [prose, row],
      EFFORT_LIMITS.medium,
      weights('operating cash flows'),
      textEntryTerms(tokenize),
    );
    expect(chains.map((c) => c.relevance)).toEqual([10, 10]);
    expect(chains[0]!.entries[0]!.consensus).toMatch(/^Net cash provided/);
  });

  it('still ranks clearly more relevant prose first', () => {
    const prose = bare(1, 'Operating cash flows rose on higher collections.', 0.03, false);
    const row = bare(2, 'Deferred revenue: 12 for 2022', 0.02, true);
    const chains = buildChains(
      [prose, row],
      EFFORT_LIMITS.medium,
      weights('operating cash flows'),
      textEntryTerms(tokenize),
    );
    expect(chains[0]!.entries[0]!.consensus).toMatch(/^Operating cash flows rose/);
  });
});

describe('confidenceOf', () => {
  const src = (source: number, status: 'FACT' | 'PREDICTION' = 'FACT') => ({
    source,
    status,
    page: 0,
    kind: 'sentence' as const,
  });
  it('follows agreement, status and disagreement', () => {
    expect(confidenceOf([src(1), src(2)])).toBe('High');
    expect(confidenceOf([src(1)])).toBe('Medium');
    expect(confidenceOf([src(1, 'PREDICTION')])).toBe('Low');
    expect(confidenceOf([src(1), src(2)], [src(3)])).toBe('Medium');
    expect(confidenceOf([src(1)], [src(3)])).toBe('Low');
  });
});

describe('draftChains from shard heads', () => {
  // The restated-row rule reads where a shown row is restated; the head carries it (Shard.restated), so heads alone
  // draft what whole shards do, with no record read.
  it('skips a row restated by a shown row from the heads alone, as whole shards do', async () => {
    const later = sample.shard('ZNHF-FY2023');
    const earlier = sample.shard('ZNHF-FY2022');
    const restating = later.shard.texts.findIndex((t) => t.startsWith('Operating income:') && t.includes('415'));
    const restated = earlier.shard.texts.findIndex((t) => t.startsWith('Operating income:') && t.includes('415'));
    const agreeing = later.shard.agree[restating]!.map((o) => `${o.source}:${o.page}`);
    expect(agreeing).toContain(`${earlier.shard.source[restated]}:${earlier.shard.page[restated]}`);
    const hits = [hit(later.index, later.shard, restating, 0.03), hit(earlier.index, earlier.shard, restated, 0.02)];
    const q = weights('Zenharrow operating income');
    const anchors = (drafts: ReturnType<typeof draftChains>) =>
      drafts.map((d) => `${d.nodes[0]!.shard}:${d.nodes[0]!.local}`);

    const whole = new Map([
      [later.index, later.shard],
      [earlier.index, earlier.shard],
    ]);
    expect(anchors(draftChains(hits, EFFORT_LIMITS.low, q, textEntryTerms(tokenize), whole))).toEqual([
      `${later.index}:${restating}`,
    ]);

    // The head's restated rows are the record's agree occurrences, sources global in both.
    const reads: number[] = [];
    const reader = openFileIndex(sample.result.dir, { onRead: (_, bytes) => reads.push(bytes) });
    const heads = new Map([
      [later.index, await reader.shard(later.index)],
      [earlier.index, await reader.shard(earlier.index)],
    ]);
    const head = heads.get(later.index)!;
    const { at, source, page } = head.restated;
    expect(
      Array.from(
        { length: at[restating + 1]! - at[restating]! },
        (_, k) => `${source[at[restating]! + k]}:${page[at[restating]! + k]}`,
      ),
    ).toEqual(agreeing);
    const bare = hits.map((h) => ({ ...h, text: '' }));
    const readsBefore = reads.length;
    expect(anchors(draftChains(bare, EFFORT_LIMITS.low, q, () => ['operating', 'income'], heads))).toEqual([
      `${later.index}:${restating}`,
    ]);
    expect(reads.length).toBe(readsBefore);
    expect(head.parts!.records.every((r) => r === 0)).toBe(true);
  });
});

describe('withoutRepeatedStatements', () => {
  // Pending chains reduced to what the function reads: their statements (draft nodes) and those statements' claims.
  const pending = (claims: number[]): PendingChain => ({
    relevance: 5,
    score: 0.01,
    shards: new Map(),
    claims,
    draft: {
      score: 0.01,
      relevance: 5,
      nodes: claims.map((k) => ({ shard: 0, local: k })),
      explain: {} as ChainDraft['explain'],
    },
  });

  it("shows a statement once, in the better-ranked chain, and keeps the later chain's other statements", () => {
    const [a, b, c, d] = [pending([1, 2]), pending([2, 3]), pending([4]), pending([1, 3])];
    const { chains, from } = withoutRepeatedStatements([a, b, c, d]);
    expect(chains.map((x) => x.claims)).toEqual([[1, 2], [3], [4]]);
    expect(chains.map((x) => x.draft.nodes.map((n) => n.local))).toEqual([[1, 2], [3], [4]]);
    expect(chains.map((x) => from.get(x))).toEqual([a, b, c]);
    expect(chains[0]).toBe(a);
  });
});
