// The lexical leg's two fields (a statement's words and the words of its place) and the equivalents of query terms.
// Texts are written for this test (an invented company).
import { describe, expect, it } from 'vitest';
import { segmentFiling } from '../../index-builder/segment';
import { extractStatements } from '../../index-builder/statements';
import { decodeShard, encodeShard } from '../../src/format/shard-layout';
import type { Lexicon } from '../../src/format/types';
import { bodyTf, encodePostingTf, fieldTf, MAX_BODY_TF } from '../../src/search/bm25';
import { equivalentTerms } from '../../src/search/equivalents';
import { searchLexical } from '../../src/search/lexical';
import { RANKING } from '../../src/search/ranking';
import { tokenize } from '../../src/text/tokenize';

describe('posting bytes', () => {
  it('hold the body frequency (capped) and the context bit apart', () => {
    for (const tf of [0, 1, 2, 7, MAX_BODY_TF])
      for (const inContext of [false, true]) {
        const byte = encodePostingTf(tf, inContext);
        expect(byte).toBeLessThan(256);
        expect(bodyTf(byte)).toBe(tf);
        expect(fieldTf(byte, 0.5)).toBe(tf + (inContext ? 0.5 : 0));
      }
    expect(bodyTf(encodePostingTf(300, false))).toBe(MAX_BODY_TF);
  });
});

const PAGE = [
  'Item 1. Business',
  'Human Capital',
  'As of December 31, 2023, we employed approximately 22,000 people worldwide. About half of them work in our',
  'plants in Ohio and Ontario.',
  'Item 8. Financial Statements and Supplementary Data',
  'Note 7. Leases',
  'Lease Costs',
  'The components of lease cost were as follows:',
  '   2023   2022',
  'Operating lease cost   $   120   $   110',
  'Variable lease cost   30   25',
].join('\n');

describe('statement context', () => {
  const statements = segmentFiling('10-K', [PAGE]).flatMap((s) => extractStatements(s, '10-K'));
  const byStart = (start: string) => statements.find((s) => s.text.startsWith(start))!;

  it('gives a sentence its heading, and a later sentence its paragraph first sentence too', () => {
    expect(byStart('As of December 31').context).toBe('Human Capital');
    const second = byStart('About half');
    expect(second.context).toContain('Human Capital');
    expect(second.context).toContain('we employed approximately 22,000 people');
  });

  it('gives a table row its note title, heading and the sentence introducing the table', () => {
    const row = statements.find((s) => s.kind === 'table_row' && /Operating lease cost/.test(s.text))!;
    expect(row.context!.split('\n')).toEqual([
      'Note 7. Leases',
      'Lease Costs',
      'The components of lease cost were as follows:',
    ]);
  });
});

/** A one-shard index of these statements: body and context terms posted as the builder posts them. */
function shardOf(docs: { body: string; context?: string }[]) {
  const bodies = docs.map((d) => tokenize(d.body));
  const contexts = docs.map((d) => new Set(tokenize(d.context ?? '')));
  const terms = [...new Set([...bodies.flat(), ...contexts.flatMap((c) => [...c])])].sort();
  const postDocs: number[] = [];
  const postTfs: number[] = [];
  const postOffsets = [0];
  const df: number[] = [];
  for (const t of terms) {
    docs.forEach((_, i) => {
      const tf = bodies[i]!.filter((b) => b === t).length;
      if (!tf && !contexts[i]!.has(t)) return;
      postDocs.push(i);
      postTfs.push(encodePostingTf(tf, contexts[i]!.has(t)));
    });
    postOffsets.push(postDocs.length);
    df.push(postOffsets[postOffsets.length - 1]! - postOffsets[postOffsets.length - 2]!);
  }
  const n = docs.length;
  const dim = 8;
  const shard = decodeShard(
    encodeShard({
      id: 'TEST-FY2023',
      texts: docs.map((d) => d.body),
      kind: new Array(n).fill('sentence'),
      status: new Array(n).fill('FACT'),
      metric: new Uint8Array(n),
      agree: new Array(n).fill([]),
      disagree: new Array(n).fill([]),
      edges: new Array(n).fill([]),
      terms,
      postOffsets: Uint32Array.from(postOffsets),
      postDocs: Uint32Array.from(postDocs),
      postTfs: Uint8Array.from(postTfs),
      docLen: Uint16Array.from(bodies, (b) => b.length),
      dim,
      vectors: new Int8Array(n * dim),
      source: new Array(n).fill(0),
      page: new Array(n).fill(1),
      offset: new Uint32Array(n),
      length: new Uint32Array(n),
    }),
  );
  const lexicon = {
    termIndex: new Map(terms.map((t, i) => [t, i])),
    df: Uint32Array.from(df),
    totalStatements: n,
    avgLen: bodies.reduce((a, b) => a + b.length, 0) / n,
  } as unknown as Lexicon;
  return { shard, lexicon };
}

describe('lexical leg', () => {
  const docs = [
    { body: 'We employed approximately 22,000 people at year end.', context: 'Human Capital' },
    { body: 'Our human capital strategy develops talent across the company.' },
    { body: 'Revenue grew in every segment during the year.', context: 'Human Capital' },
    { body: 'Capital expenditures were higher in the year.' },
  ];
  const { shard, lexicon } = shardOf(docs);
  const all = () => true;

  it('scores the words of a statement place, less than its own words', () => {
    const found = searchLexical(shard, lexicon, tokenize('human capital'), all, 10);
    const ids = found.map((h) => h.local);
    expect(ids.slice(0, 1)).toEqual([1]); // says it itself
    expect(ids).toContain(0); // under the heading only
    const heading = found.find((h) => h.local === 0)!.score;
    expect(heading).toBeLessThan(found[0]!.score);
  });

  it('finds a statement by an equivalent of a query term, below one in the question own word', () => {
    const terms = tokenize('how many employees');
    const equivalents = equivalentTerms(terms);
    expect(equivalents.get('employee')).toContain('employed');
    expect(searchLexical(shard, lexicon, terms, all, 10)).toEqual([]);
    const found = searchLexical(shard, lexicon, terms, all, 10, undefined, equivalents);
    expect(found.map((h) => h.local)).toEqual([0]);
    const own = searchLexical(shard, lexicon, tokenize('employed'), all, 10)[0]!.score;
    expect(found[0]!.score).toBeCloseTo(RANKING.equivalentWeight * own, 10);
  });

  it('counts a query term once for a statement holding it and its equivalents', () => {
    const terms = tokenize('employed');
    const withEquivalents = searchLexical(shard, lexicon, terms, all, 10, undefined, equivalentTerms(terms));
    expect(withEquivalents).toEqual(searchLexical(shard, lexicon, terms, all, 10));
  });
});
