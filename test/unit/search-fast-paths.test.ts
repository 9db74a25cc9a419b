// The retrieval fast paths against their slow twins: topK's bounded heap against sorting everything, the
// binary-code scan of the vector leg against the exact int8 scan, the query terms a statement holds read from
// posting lists against tokenizing its text, and BM25 over posting lists against scoring each statement's text.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topK, type ScoredStatement } from '../../src/search/top-k';
import { codeScorer, searchVectorCodes, searchVectorExact } from '../../src/search/vector';
import { buildSample } from '../support/sample-build';
import { openFileIndex } from '../support/file-index';
import { heldIndexes, heldSources } from '../../index-format/views';
import { chainTerms } from '../../src/evidence/chains';
import { membershipQuery, statementQueryTerms } from '../../src/search/term-membership';
import { fillPostings } from '../../index-format/shard-layout';
import { ArtifactFormatError } from '../../index-format/container';
import { lexicalQuery } from '../../src/question/terms';
import { indexTerms, type Compound } from '../../index-format/tokenize';
import { searchLexical, type TermCredit } from '../../src/search/lexical';
import { bm25Idf, bm25TermScore } from '../../index-format/bm25';
import type { Lexicon, Shard } from '../../index-format/types';

const sortAll = (items: ScoredStatement[], k: number) =>
  [...items].sort((a, b) => b.score - a.score || a.local - b.local).slice(0, k);

describe('topK', () => {
  it('gives what sorting everything gives, ties and small k included', () => {
    const item = fc.record({
      local: fc.nat(5000),
      score: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -1, max: 1, noNaN: true })),
    });
    fc.assert(
      fc.property(fc.uniqueArray(item, { selector: (x) => x.local, maxLength: 2000 }), fc.nat(300), (items, k) => {
        expect(
          topK(
            items.map((x) => ({ ...x })),
            k,
          ),
        ).toEqual(sortAll(items, k));
      }),
      { numRuns: 300 },
    );
  });
});

// The sample index, built once for the twins that read shards.
let sample: Awaited<ReturnType<typeof buildSample>>;
beforeAll(async () => {
  sample = await buildSample();
});
afterAll(() => sample.dispose());

describe('the code scan against the exact scan (its slow twin)', () => {
  it('scores each code by its byte tables as the per-dimension formula does', () => {
    const { shard } = sample.shard('QVLT-FY2023');
    const query = embedTokens(shard, 0);
    const scorer = codeScorer(shard, query);
    const width = shard.dim / 8;
    for (let local = 0; local < shard.count; local += 7) {
      let direct = 0;
      for (let d = 0; d < shard.dim; d++) {
        const bit = (shard.codes[local * width + (d >> 3)]! >> (d & 7)) & 1;
        direct += query[d]! * (shard.codeMean[d]! + (bit ? 1 : -1) * shard.codeScale[d]!);
      }
      expect(scorer.score(local)).toBeCloseTo(direct / 127, 9);
    }
  });

  it('finds most of the exact top statements, and its approximate scores follow the exact cosines', () => {
    let found = 0;
    let wanted = 0;
    for (const id of ['QVLT-FY2023', 'ZNHF-FY2022']) {
      const { shard } = sample.shard(id);
      for (let k = 0; k < 20; k++) {
        const query = embedTokens(shard, k * 11);
        const exact = searchVectorExact(shard, query, () => true, 20).map((h) => h.local);
        const codes = new Set(searchVectorCodes(shard, query, () => true, 40).map((h) => h.local));
        wanted += exact.length;
        found += exact.filter((l) => codes.has(l)).length;
      }
    }
    expect(wanted).toBeGreaterThan(0);
    expect(found / wanted).toBeGreaterThanOrEqual(0.8);
  });
});

describe('query terms of a statement from posting lists against its tokenized text (its slow twin)', () => {
  it(`gives the query terms chainTerms gives, on every statement, for questions with metrics, years and rare \
words`, () => {
    const questions = [
      'What was Quillvale capital expenditure in fiscal 2023?',
      'Zenharrow Foods net sales and cost of sales in 2022 and FY2021',
      'How did Quarrystone describe wildfire risks in 2023?',
      'operating income 2021 2022 2023 fy2020 inventory dividends',
      // closed spellings, which only the postings of hyphenated words' joined forms hold in the sample
      'longterm debt and shortterm investments writedowns',
      // hyphenated words that the sample prints closed ("cybersecurity", "noncurrent") and with the hyphen
      'cyber-security incidents and non-current assets, long-term debt',
    ];
    let compared = 0;
    for (const id of ['QVLT-FY2023', 'ZNHF-FY2022', 'QSEP-FY2023']) {
      const { shard } = sample.shard(id);
      for (const q of questions) {
        const { terms, compounds = [] } = lexicalQuery(q);
        for (let local = 0; local < shard.count; local++) {
          const fromText = new Set(chainTerms(shard.texts[local]!, shard.metric[local]!, indexTerms, compounds));
          expect(statementQueryTerms(shard, local, membershipQuery(terms, compounds)), `${id} #${local}`).toEqual(
            terms.filter((t) => fromText.has(t)),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('refuses a posting list whose ids are not ascending (the binary search relies on it)', () => {
    const { shard } = sample.shard('QVLT-FY2023');
    const t = Array.from({ length: shard.terms.length }, (_, i) => i).find(
      (i) => shard.postOffsets[i + 1]! - shard.postOffsets[i]! >= 2,
    )!;
    const a = shard.postOffsets[t]!;
    const k = shard.postOffsets[t + 1]! - a;
    // The sample's shards are small: 16-bit ids (index-format/shard-layout.ts postingIdBytes).
    const bytes = new Uint8Array(Math.ceil((3 * k) / 4) * 4);
    const ids = Uint16Array.from(shard.postDocs.subarray(a, a + k));
    [ids[0], ids[1]] = [ids[1]!, ids[0]!];
    bytes.set(new Uint8Array(ids.buffer), 0);
    bytes.set(shard.postTfs.subarray(a, a + k), 2 * k);
    expect(() => fillPostings(shard, t, bytes)).toThrow(ArtifactFormatError);
  });
});

describe('the sources and shards a scoped catalog holds against walking its sparse arrays (their slow twin)', () => {
  it(`lists exactly the indexes a walk over every slot finds, in order, for each issuer and for all of \
them`, async () => {
    const reader = openFileIndex(sample.result.dir);
    for (const tickers of [['QVLT'], ['ZNHF', 'QSEP'], sample.catalog.companies.map((c) => c.ticker)]) {
      const { sources, shards } = await reader.scope(tickers);
      const walk = (entries: readonly unknown[]) => {
        const walked: number[] = [];
        for (let i = 0; i < entries.length; i++) if (i in entries) walked.push(i);
        return walked;
      };
      expect(walk(sources).length).toBeGreaterThan(0);
      expect(heldSources(sources)).toEqual(walk(sources));
      expect(heldSources(sources).every((i) => tickers.includes(sources[i]!.meta.sec_ticker!))).toBe(true);
      expect(heldIndexes(shards)).toEqual(walk(shards));
      expect(new Set(heldSources(sources).map((i) => sources[i]!.shard))).toEqual(new Set(heldIndexes(shards)));
    }
    expect(heldSources(sample.catalog.sources).length).toBe(sample.catalog.sources.length); // the whole index: dense
  });
});

/** A query vector: a statement's own int8 vector as floats, unit length (a query close to real statements). */
function embedTokens(shard: Shard, local: number): Float32Array {
  const v = Float32Array.from(shard.vectors.subarray(local * shard.dim, (local + 1) * shard.dim));
  let norm = 0;
  for (const x of v) norm += x * x;
  return v.map((x) => x / Math.sqrt(norm || 1));
}

describe('BM25 over posting lists against scoring each statement from its tokenized text (its slow twin)', () => {
  /**
   * Every statement holding a query term or a compound's joined spelling, scored term by term from its own tokens;
   * credit and compounds as searchLexical defines them.
   */
  const naive = (
    shard: Shard,
    lexicon: Lexicon,
    terms: readonly string[],
    credit?: TermCredit,
    compounds: readonly Compound[] = [],
  ) => {
    const out: ScoredStatement[] = [];
    for (let local = 0; local < shard.count; local++) {
      const tf = new Map<string, number>();
      for (const t of indexTerms(shard.texts[local]!)) tf.set(t, (tf.get(t) ?? 0) + 1);
      const score = (t: string, n: number) =>
        bm25TermScore(
          bm25Idf(lexicon.totalStatements, lexicon.df[lexicon.termIndex.get(t)!]!),
          n,
          shard.docLen[local]!,
          lexicon.avgLen,
        );
      const held = [...new Set(terms)].filter((t) => tf.has(t) && lexicon.termIndex.has(t));
      const spelled = compounds
        .filter((c) => tf.has(c.joined))
        .flatMap((c) => c.parts.filter((p) => !tf.has(p) && lexicon.termIndex.has(p)));
      if (!held.length && !spelled.length) continue;
      let s = held.reduce((sum, t) => sum + score(t, Math.min(255, tf.get(t)!)), 0);
      for (const p of spelled) s += score(p, 1);
      if (credit?.holds(local))
        for (const t of new Set(credit.terms)) if (!tf.has(t) && lexicon.termIndex.has(t)) s += score(t, 1);
      out.push({ local, score: s });
    }
    return out.sort((a, b) => b.score - a.score || a.local - b.local);
  };

  it('scores every statement as the per-statement formula does, with and without a period credit', async () => {
    const reader = openFileIndex(sample.result.dir);
    const questions = [
      'foundry litigation jury trial in the first quarter',
      'wildfire risks and insurance in the second quarter',
      'restructuring charges consolidation first half',
      'longterm debt stockbased compensation in the first quarter',
      'cyber-security incidents and non-current assets in the first quarter',
    ];
    let compared = 0;
    for (const id of ['QVLT-FY2024', 'QVLT-FY2023', 'ZNHF-FY2023', 'QSEP-FY2023']) {
      const { shard } = sample.shard(id);
      const firstSource = shard.source[0]!;
      for (const q of questions) {
        const { terms, compounds = [] } = lexicalQuery(q);
        const { lexicon } = await reader.terms(terms);
        const credit: TermCredit = {
          terms: terms.filter((t) => ['first', 'second', 'quarter', 'half'].includes(t)),
          holds: (local) => shard.source[local] === firstSource,
        };
        for (const c of [undefined, credit]) {
          const fast = searchLexical(shard, lexicon, terms, () => true, shard.count, undefined, c, compounds);
          const slow = naive(shard, lexicon, terms, c, compounds);
          expect(
            fast.map((h) => h.local),
            `${id} ${q}`,
          ).toEqual(slow.map((h) => h.local));
          for (const [i, h] of fast.entries()) expect(h.score).toBeCloseTo(slow[i]!.score, 9);
          compared += fast.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});

describe('a hyphenated word of the question', () => {
  it('finds the statements that print it closed', async () => {
    const reader = openFileIndex(sample.result.dir);
    const { shard } = sample.shard('QSEP-FY2023');
    const { terms, compounds = [] } = lexicalQuery('cyber-security');
    expect(compounds).toEqual([{ joined: 'cybersecurity', parts: ['cyber', 'security'] }]);
    const { lexicon } = await reader.terms(terms);
    const closed = shard.texts.findIndex((t) => /^No cybersecurity incident had a material effect/.test(t));
    expect(closed).toBeGreaterThanOrEqual(0);
    const found = (c: readonly Compound[]) =>
      searchLexical(shard, lexicon, terms, () => true, shard.count, undefined, null, c).map((h) => h.local);
    // it holds neither "cyber" nor "security": found by the joined spelling alone
    expect(found(compounds)).toContain(closed);
    expect(found([])).not.toContain(closed);
  });
});
