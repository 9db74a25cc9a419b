import { describe, expect, it } from 'vitest';
import { codePointLength, normalizeQuery } from '../../src/text/normalize';
import { stem, tokenize } from '../../src/text/tokenize';

describe('normalizeQuery', () => {
  it('applies NFKC, collapses whitespace and trims', () => {
    expect(normalizeQuery('  ﬁscal\u00a0 2023\n\tcapex  ')).toBe('fiscal 2023 capex');
    expect(normalizeQuery('net\u200bsales \u202eQ3\u202c\u0007 2023\ufeff')).toBe('netsales Q3 2023'); // Cf removed, Cc as space
    expect(normalizeQuery('\u200b\u200c\u200d\u2060')).toBe('');
  });
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('😀😀')).toBe(2);
  });
});

describe('tokenize', () => {
  it('drops thousands separators so figures match however they are written', () => {
    expect(tokenize('(1,577) million')).toEqual(['1577', 'million']);
  });
  it('keeps PP&E and U.S. as single terms and strips possessives', () => {
    expect(tokenize("PP&E in the U.S. and 3M's")).toEqual(['pp&e', 'us', '3m']);
  });
  it('stems plurals only', () => {
    expect(stem('liabilities')).toBe('liability');
    expect(stem('sales')).toBe('sale');
    expect(stem('business')).toBe('business');
    expect(stem('operating')).toBe('operating');
  });
});
