import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors';
import { matchesConditions } from '../../src/filters/match';
import { conditionsToObject, parseMetadataFilters, type FilterVocabulary } from '../../src/filters/parse';
import type { SourceMeta } from '../../index-format/types';

const vocab: FilterVocabulary = {
  aliases: {
    sec_ticker: new Map([
      ['example widgets', 'EXWG'],
      ['exwg', 'EXWG'],
    ]),
    sec_gics_sector: new Map([['industrials', 'Industrials']]),
  },
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof ApiError ? e.code : 'OTHER';
  }
  return undefined;
}

describe('parseMetadataFilters', () => {
  it('accepts the three value forms and normalizes values and aliases', () => {
    const c = parseMetadataFilters(
      {
        sec_form_type: '10k',
        sec_fiscal_year: ['fy2023', '2022'],
        sec_ticker: 'Example Widgets',
        report_filing_date: { gte: '2023-01-01', lte: '2024-12-31' },
        sec_gics_sector: 'industrials',
      },
      vocab,
    );
    expect(conditionsToObject(c)).toEqual({
      sec_form_type: '10-K',
      sec_fiscal_year: ['FY-2023', 'FY-2022'],
      sec_ticker: 'EXWG',
      report_filing_date: { gte: '2023-01-01', lte: '2024-12-31' },
      sec_gics_sector: 'Industrials',
    });
  });

  it('rejects boolean expression roots with FILTER_EXPRESSION_UNSUPPORTED', () => {
    expect(codeOf(() => parseMetadataFilters({ and: [] }, vocab))).toBe('FILTER_EXPRESSION_UNSUPPORTED');
    expect(codeOf(() => parseMetadataFilters({ sec_ticker: { or: ['A'] } }, vocab))).toBe(
      'FILTER_EXPRESSION_UNSUPPORTED',
    );
  });

  it('rejects operators a field does not allow, impossible dates and unknown item tags', () => {
    expect(codeOf(() => parseMetadataFilters({ sec_fiscal_year: { gte: 'FY-2020' } }, vocab))).toBe('INVALID_FILTER');
    expect(codeOf(() => parseMetadataFilters({ report_filing_date: '2023-02-30' }, vocab))).toBe('INVALID_FILTER');
    expect(codeOf(() => parseMetadataFilters({ sec_item_tag: '10K-Item-99' }, vocab))).toBe('INVALID_FILTER');
    expect(codeOf(() => parseMetadataFilters({ sec_fiscal_year_end: '02-30' }, vocab))).toBe('INVALID_FILTER');
  });

  it('enforces the value limits', () => {
    const many = Array.from({ length: 101 }, (_, i) => `T${i}`);
    expect(codeOf(() => parseMetadataFilters({ sec_ticker: many }, vocab))).toBe('FILTER_LIMIT_EXCEEDED');
    expect(codeOf(() => parseMetadataFilters({ sec_ticker: 'x'.repeat(257) }, vocab))).toBe('FILTER_LIMIT_EXCEEDED');
    // not a ticker
    expect(codeOf(() => parseMetadataFilters({ sec_ticker: 'x'.repeat(256) }, vocab))).toBe('INVALID_FILTER');
    const total = {
      sec_ticker: many.slice(0, 100),
      sec_gics_sector: many.slice(0, 100),
      sec_gics_sub_industry: many.slice(0, 51),
    };
    expect(codeOf(() => parseMetadataFilters(total, vocab))).toBe('FILTER_LIMIT_EXCEEDED');
  });
});

describe('matchesConditions', () => {
  const meta: SourceMeta = {
    report_filing_date: null,
    sec_fiscal_year: 'FY-2023',
    sec_fiscal_year_end: '06-30',
    sec_form_type: '10-K',
    sec_gics_sector: 'Industrials',
    sec_gics_sub_industry: null,
    sec_item_tag: '10K-Item-7',
    sec_ticker: 'EXWG',
  };
  it('never lets an unknown filing date match a date filter', () => {
    expect(matchesConditions(meta, [{ field: 'report_filing_date', op: 'gte', values: ['2000-01-01'] }])).toBe(false);
  });
  it('applies eq, in and neq', () => {
    expect(matchesConditions(meta, [{ field: 'sec_ticker', op: 'in', values: ['EXWG', 'ZZZ'] }])).toBe(true);
    expect(matchesConditions(meta, [{ field: 'sec_form_type', op: 'neq', values: ['10-K'] }])).toBe(false);
  });
});
