import { describe, expect, it } from 'vitest';
import { financialStatementTitle, namedFinancialStatements } from '../../index-format/financial-statements';

describe('financialStatementTitle', () => {
  it.each([
    ['CONSOLIDATED BALANCE SHEETS', 'balance_sheet'],
    ['   Condensed Consolidated Balance Sheets (Unaudited)', 'balance_sheet'],
    ['Consolidated Statements of Financial Position', 'balance_sheet'],
    ['Consolidated Balance Shee t', 'balance_sheet'], // a word broken before its last letter by the page's layout
    ['Arbelion Utilities, Inc. Consolidated Statements of Income', 'income_statement'],
    ['Consolidated Statements of Operations   Chipperfield Devices Inc. and Subsidiaries', 'income_statement'],
    // the group after the title in one cell
    ['Consolidated Balance Sheets Chipperfield Devices Inc. and Subsidiaries', 'balance_sheet'],
    ['Consolidated Statements of Operations (1)', 'income_statement'], // a footnote marker
    ['Consolidated Balance Sheets (1) (2)', 'balance_sheet'],
    // broken inside a word
    ['Consolidated Statem ents of Income (Loss)   Arbelion Utilities and Subsidiary Companies', 'income_statement'],
    ['Consolidated Statements of Comp rehensive Income', 'comprehensive_income'],
    ['CONSOLIDATED STATEMENTS OF OPERATIONS AND COMPREHENSIVE LOSS', 'income_statement'],
    ['INCOME STATEMENTS', 'income_statement'],
    ['COMPREHENSIVE INCOME STATEMENTS', 'comprehensive_income'],
    ['Consolidated Statements of Earnings', 'income_statement'],
    ['Consolidated Statements of Comprehensive Income', 'comprehensive_income'],
    ['Consolidated Statement of Cash Flow s', 'cash_flow_statement'],
    ['CASH FLOWS STATEMENTS', 'cash_flow_statement'],
    ["Consolidated Statements of Changes in Shareholders' Equity", 'equity_statement'],
    ['STOCKHOLDERS’ EQUITY STATEMENTS', 'equity_statement'],
  ])('%s -> %s', (line, kind) => {
    expect(financialStatementTitle(line)).toBe(kind);
  });

  it.each([
    'Selected Income Statement Data',
    'Notes to Consolidated Financial Statements',
    'Index to Consolidated Financial Statements',
    'The consolidated balance sheets present fairly, in all material respects, the financial position of the Company.',
    'Balance, beginning of period   86,939   83,111',
    'See the Consolidated Statements of Cash Flows for the amounts paid.',
    'Consolidated Statements of Income Data',
    'We have audited the accompanying consolidated balance sheets of Arbelion Utilities, Inc. and ' +
      'subsidiaries (the Company)',
    'measured at amortized cost and certain off-balance sheet',
    'Supplemental Cash Flow Statement Information',
    'Condensed consolidating statements of income for the guarantor subsidiaries and the non-guarantor subsidiaries',
  ])('%s is no title', (line) => {
    expect(financialStatementTitle(line)).toBeNull();
  });
});

describe('namedFinancialStatements', () => {
  it('reads the statements a question names', () => {
    expect(namedFinancialStatements('Did long-term debt on the balance sheet grow in 2023?')).toEqual([
      'balance_sheet',
    ]);
    expect(namedFinancialStatements('From the P&L and the statement of cash flows, was capex covered?')).toEqual([
      'income_statement',
      'cash_flow_statement',
    ]);
    expect(namedFinancialStatements('What drove the change in operating income?')).toEqual([]);
  });
});
