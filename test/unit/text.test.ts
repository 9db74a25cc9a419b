import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWordChar } from '../../index-format/entities';
import { escapeText } from '../../src/render/xml';
import { codePointLength, normalizeQuery } from '../../index-format/normalize';
import {
  hyphenCompounds,
  hyphenCompoundsUnicode,
  indexTerms,
  queryCompounds,
  stem,
  tokenize,
  tokenizeUnicode,
} from '../../index-format/tokenize';

describe('normalizeQuery', () => {
  it('applies NFKC, collapses whitespace and trims', () => {
    expect(normalizeQuery('  ﬁscal\u00a0 2023\n\tcapex  ')).toBe('fiscal 2023 capex');
    // Cf removed, Cc as space
    expect(normalizeQuery('net\u200bsales \u202eQ3\u202c\u0007 2023\ufeff')).toBe('netsales Q3 2023');
    expect(normalizeQuery('\u200b\u200c\u200d\u2060')).toBe('');
  });
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('😀😀')).toBe(2);
  });
});

describe('fast paths against their general twins', () => {
  // Filing-like ASCII: letters, digits and the characters the token pattern treats specially.
  const asciiText = fc.string({ unit: fc.constantFrom(..."aZ09 .,&'$()-%:;/\n\tUSsiePE".split('')), maxLength: 80 });
  it('tokenize: the ASCII path gives the tokens of the Unicode path', () => {
    const same = fc.property(asciiText, (t) => {
      expect(tokenize(t)).toEqual(tokenizeUnicode(t));
      expect(hyphenCompounds(t)).toEqual(hyphenCompoundsUnicode(t));
    });
    fc.assert(same, { numRuns: 2000 });
    for (const t of [
      'U.S. sales rose 12.5% to $1,577.0 million',
      "PP&E and the company's R&D",
      'Item 7A. FY2023 Q3 10-Q',
    ])
      expect(tokenize(t)).toEqual(tokenizeUnicode(t));
    expect(tokenize('ﬁscal 2023 caf\u00e9 sales’ growth')).toEqual(
      tokenizeUnicode('ﬁscal 2023 caf\u00e9 sales’ growth'),
    ); // not ASCII: the general path
  });
  it('isWordChar: the ASCII test agrees with the Unicode property test', () => {
    const word = /[\p{L}\p{N}]/u;
    for (let c = 0; c < 0x3000; c++)
      expect(isWordChar(String.fromCharCode(c)), `U+${c.toString(16)}`).toBe(word.test(String.fromCharCode(c)));
    expect(isWordChar(undefined)).toBe(false);
  });
  it('escapeText: text without markup characters is returned as it is, the rest escaped', () => {
    const escaped = fc.property(fc.string({ maxLength: 40 }), (t) => {
      expect(escapeText(t)).toBe(t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    });
    fc.assert(escaped);
  });
});

describe('tokenize', () => {
  it('drops thousands separators so figures match however they are written', () => {
    expect(tokenize('(1,577) million')).toEqual(['1577', 'million']);
  });
  it('keeps PP&E and U.S. as single terms and strips possessives', () => {
    expect(tokenize("PP&E in the U.S. and 3M's")).toEqual(['pp&e', 'us', '3m']);
  });
  it("posts a statement's word of two hyphen-joined letter parts under its joined spelling as well", () => {
    expect(hyphenCompounds('pre-tax income, non-cash charges')).toEqual(['pretax', 'noncash']);
    expect(indexTerms('pre-tax income')).toEqual(['pre', 'tax', 'income', 'pretax']);
    // either spelling of the word finds the other; a question's words are the parts (tokenize)
    expect(indexTerms('e-commerce sales')).toContain(tokenize('eCommerce')[0]);
    expect(tokenize('pre-tax income')).toEqual(['pre', 'tax', 'income']);
    // a chain of parts is a phrase, and digits make a code, not a word; a stop word part still joins
    expect(hyphenCompounds('year-over-year 10-K COVID-19 sales - net non-U.S.')).toEqual([]);
    expect(hyphenCompounds('in-house by-products')).toEqual(['inhouse', 'byproduct']);
    expect(hyphenCompoundsUnicode('Coca\u2011Cola')).toEqual(['cocacola']);
  });
  it("reads a question's hyphenated words as their parts and joined spelling (what a statement may print)", () => {
    expect(queryCompounds('Is e-commerce growing in-house? Non-cash, e-commerce; year-over-year')).toEqual([
      { joined: 'ecommerce', parts: ['e', 'commerce'] },
      { joined: 'inhouse', parts: ['house'] },
      { joined: 'noncash', parts: ['non', 'cash'] },
    ]);
  });
  it('stems plurals only', () => {
    expect(stem('liabilities')).toBe('liability');
    expect(stem('sales')).toBe('sale');
    expect(stem('business')).toBe('business');
    // irregular plurals filings use; "-ics" fields stay whole
    expect(['lives', 'metrics', 'bonuses', 'analyses', 'indices', 'electronics'].map(stem)).toEqual([
      'life',
      'metric',
      'bonus',
      'analysis',
      'index',
      'electronics',
    ]);
    // "es" after x, ch and sh; nouns in "che" add "s" only
    expect(['taxes', 'branches', 'wishes', 'tranches', 'caches'].map(stem)).toEqual([
      'tax',
      'branch',
      'wish',
      'tranche',
      'cache',
    ]);
    expect(stem('operating')).toBe('operating');
  });
});
