// Stand-ins for query terms in the lexical leg: accounting equivalents and Porter2 stem forms, scored as the best of
// the term's own BM25 and each stand-in's times its weight, and counted as covering the term in chain relevance.
// Texts are written for this test (an invented company).
import { describe, expect, it } from 'vitest';
import { decodeShard, encodeShard } from '../../index-format/shard-layout';
import { tokenize } from '../../index-format/tokenize';
import type { Lexicon } from '../../index-format/types';
import { chainRelevance, RANKING, type StandIns } from '../../src/search/ranking';
import { standInsOf } from '../../src/search/equivalents';
import { searchLexical } from '../../src/search/lexical';
import { stemForms } from '../../src/search/morphology';
import { shardInput } from '../support/shard-input';
import { membershipQuery, membershipTerms, statementQueryTerms } from '../../src/search/term-membership';

/** A one-shard index of these statements, posted as the builder posts them (term frequencies of their tokens). */
function shardOf(texts: string[]) {
  const tokens = texts.map((t) => tokenize(t));
  const terms = [...new Set(tokens.flat())].sort();
  const postDocs: number[] = [];
  const postTfs: number[] = [];
  const postOffsets = [0];
  const df: number[] = [];
  for (const t of terms) {
    tokens.forEach((ts, i) => {
      const tf = ts.filter((x) => x === t).length;
      if (!tf) return;
      postDocs.push(i);
      postTfs.push(tf);
    });
    df.push(postDocs.length - postOffsets[postOffsets.length - 1]!);
    postOffsets.push(postDocs.length);
  }
  const shard = decodeShard(
    encodeShard(
      shardInput(texts.length, {
        id: 'TEST-FY2023',
        texts,
        terms,
        postOffsets: Uint32Array.from(postOffsets),
        postDocs: Uint32Array.from(postDocs),
        postTfs: Uint8Array.from(postTfs),
        docLen: Uint16Array.from(tokens, (t) => t.length),
      }),
    ),
  );
  const lexicon = {
    termIndex: new Map(terms.map((t, i) => [t, i])),
    df: Uint32Array.from(df),
    totalStatements: texts.length,
    avgLen: tokens.reduce((a, t) => a + t.length, 0) / texts.length,
  } as unknown as Lexicon;
  return { shard, lexicon };
}

const TEXTS = [
  'As of December 31, 2023, we employed approximately 22,000 people worldwide.',
  'Our employees are covered by collective bargaining agreements in two countries.',
  'Revenue grew in every segment during the year.',
  'We recorded goodwill impairment charges of $12 million.',
  'No long-lived assets were impaired during the year.',
];

describe('stand-ins of a query term', () => {
  it('give the index forms Porter2 stems alike, never the term itself or a plural the analyzer strips', () => {
    expect(stemForms('acquire')).toEqual(expect.arrayContaining(['acquired', 'acquiring']));
    expect(stemForms('impairment')).toContain('impaired');
    expect(stemForms('planned')).toEqual(expect.arrayContaining(['plan', 'planning']));
    for (const term of ['acquire', 'impairment', 'lease']) {
      const forms = stemForms(term);
      expect(forms).not.toContain(term);
      for (const f of forms) expect(tokenize(f)).toEqual([f]);
    }
    expect(stemForms('fy2023')).toEqual([]);
  });

  it('are accounting equivalents and stem forms at their weights, never another query term', () => {
    const { equivalent, stemForm } = RANKING.standIns;
    const standIns = standInsOf(tokenize('employees headcount impairment'));
    expect(standIns.get('employee')).toContainEqual({ term: 'employed', weight: Math.max(equivalent, stemForm) });
    expect(standIns.get('employee')).toContainEqual({ term: 'workforce', weight: equivalent });
    expect(standIns.get('employee')!.map((s) => s.term)).not.toContain('headcount');
    expect(standIns.get('impairment')).toContainEqual({ term: 'impaired', weight: Math.max(equivalent, stemForm) });
    expect(standInsOf(['net', '2023', 'fy2023'])).toEqual(new Map());
  });
});

describe('the lexical leg with stand-ins', () => {
  const { shard, lexicon } = shardOf(TEXTS);
  const all = () => true;

  it('finds a statement by a stand-in at its weight, below a statement in the question own word', () => {
    const terms = tokenize('how many employees');
    const standIns = standInsOf(terms);
    const weight = standIns.get('employee')!.find((s) => s.term === 'employed')!.weight;
    expect(searchLexical(shard, lexicon, terms, all, 10).map((h) => h.local)).toEqual([1]);
    const found = searchLexical(shard, lexicon, terms, all, 10, undefined, standIns);
    expect(found.map((h) => h.local)).toEqual([1, 0]);
    const own = searchLexical(shard, lexicon, ['employed'], all, 10)[0]!.score;
    expect(found[1]!.score).toBeCloseTo(weight * own, 10);
  });

  it('scores a query term once for a statement holding it and its stand-ins: the best, not the sum', () => {
    const { shard: both, lexicon: lex } = shardOf(['We employed 900 employees.', 'Revenue grew.']);
    const terms = tokenize('employees');
    const alone = searchLexical(both, lex, terms, all, 10);
    expect(searchLexical(both, lex, terms, all, 10, undefined, standInsOf(terms))).toEqual(alone);
  });

  it('scores as before without stand-ins', () => {
    const terms = tokenize('revenue growth impairment');
    expect(searchLexical(shard, lexicon, terms, all, 10, undefined, new Map())).toEqual(
      searchLexical(shard, lexicon, terms, all, 10),
    );
  });
});

/** The slow twin of statementQueryTerms: the query terms a text holds and the stand-ins of the others it holds. */
function heldTerms(text: string, queryTerms: readonly string[], standIns: StandIns): string[] {
  const held = new Set(tokenize(text));
  return queryTerms.flatMap((t) =>
    held.has(t) ? [t] : (standIns.get(t) ?? []).map((s) => s.term).filter((s) => held.has(s)),
  );
}

describe('chain coverage with stand-ins', () => {
  const { shard } = shardOf(TEXTS);
  const terms = tokenize('how many employees worldwide');
  const standIns = standInsOf(terms);
  const weights = new Map([
    ['employee', 1],
    ['worldwide', 1],
  ]);
  const relevance = (held: string[]) => chainRelevance(new Set(held), weights, 0, [new Set(held)], false, standIns);

  it('reads a statement holding a stand-in and not the term from the posting lists, as its text gives', () => {
    const query = membershipQuery(terms, standIns);
    const cover = RANKING.standIns.cover !== 'none';
    expect(statementQueryTerms(shard, 0, query)).toEqual(cover ? ['employed', 'worldwide'] : ['worldwide']);
    expect(statementQueryTerms(shard, 1, query)).toEqual(['employee']);
    expect(statementQueryTerms(shard, 0, membershipQuery(terms))).toEqual(['worldwide']);
    TEXTS.forEach((text, local) => {
      expect(statementQueryTerms(shard, local, query)).toEqual(heldTerms(text, terms, cover ? standIns : new Map()));
    });
    expect(membershipTerms(terms)).toEqual(terms);
  });

  it('counts a stand-in as covering its query term in chain relevance, as RANKING.standIns.cover says', () => {
    const weight = standIns.get('employee')!.find((s) => s.term === 'employed')!.weight;
    const share = { none: 0, full: 1, weighted: weight }[RANKING.standIns.cover];
    const own = relevance(['employee', 'worldwide']).bestEntry;
    const byStandIn = relevance(['employed', 'worldwide']).bestEntry;
    const without = relevance(['worldwide']).bestEntry;
    expect(own).toBeCloseTo(1, 10);
    expect(without).toBeCloseTo(0.5, 10);
    expect(byStandIn).toBeCloseTo(0.5 + 0.5 * share, 10);
    // Without stand-ins given, a stand-in word is just another word.
    expect(chainRelevance(new Set(['employed', 'worldwide']), weights, 0).bestEntry).toBeCloseTo(0.5, 10);
  });
});
