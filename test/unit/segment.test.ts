import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalItems } from '../../index-builder/eval/items';
import { evalItems10Q } from '../../index-builder/eval/items10q';
import { sharedDir } from '../../index-builder/shared-dir';
import { segmentFiling } from '../../index-builder/segment/segment';
import { extractStatements, isTableRow, splitSentences } from '../../index-builder/statements/statements';

// Written for this test: a table-of-contents page, items with running headers, an in-sentence reference.
const PAGES = [
  'EXAMPLE WIDGETS INC\nANNUAL REPORT ON FORM 10-K\nFor the fiscal year ended June 30, 2024',
  'Table of Contents\nItem 1. Business   3\nItem 1A. Risk Factors   4\nItem 2. Properties   5\nItem 7. ' +
    'Management’s Discussion and Analysis   6\nItem 8. Financial Statements   7',
  'PART I\nItem 1. Business\nExample Widgets designs widgets for industrial customers in three regions.\nSee ' +
    'Item 7 of this report for a discussion of results.\nItem 1A. Risk Factors\nOur suppliers could fail to ' +
    'deliver parts on time, which could adversely affect our results.',
  'Table of Contents\nPART II\nItem 7. Management’s Discussion and Analysis\nNet sales grew 8% to $512 ' +
    'million in fiscal 2024.\nWe expect net sales to grow in fiscal 2025.\n12',
  'Item 8. Financial Statements\n(In millions)\n   2024   2023\nNet sales   $   512   $   474\nPurchases of ' +
    'property, plant and equipment   (41)   (38)\nItem 7 Management’s Discussion and Analysis\nThis line ' +
    'repeats an old heading and must stay in Item 8.',
];

describe('segmentFiling (10-K)', () => {
  const sections = segmentFiling('10-K', PAGES);

  it('ignores the table of contents and finds the items in order', () => {
    expect(sections.map((s) => s.itemTag)).toEqual(['10K-Item-1', '10K-Item-1A', '10K-Item-7', '10K-Item-8']);
  });

  it('does not take an in-sentence "Item 7" reference or a backward heading for a new item', () => {
    const item1 = sections[0]!.lines.map((l) => l.text).join('\n');
    expect(item1).toContain('See Item 7 of this report');
    const item8 = sections[3]!.lines.map((l) => l.text).join('\n');
    expect(item8).toContain('must stay in Item 8');
  });

  it('keeps page numbers on lines', () => {
    expect(sections[2]!.lines[0]!.page).toBe(3);
  });

  it('does not take a reference that wraps to the start of a line, item name first, for a heading', () => {
    // Invented: a forward-looking statements notice before Item 1 names Item 1A at a line start, mid-sentence.
    const pages = [
      'PART I\nThe factors listed here and those in\nItem 1A.—Risk Factors and in later filings should not ' +
        'be read as complete.\nITEM 1. BUSINESS\nExample Widgets designs widgets for industrial customers.',
      'ITEM 1A. RISK FACTORS\nOur suppliers could fail to deliver parts on time.',
    ];
    const found = segmentFiling('10-K', pages);
    expect(found.map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 0],
      ['10K-Item-1A', 1],
    ]);
    expect(found[0]!.lines.map((l) => l.text).join('\n')).toContain('designs widgets');
  });

  // Invented pages for the layouts below; each test fails without the rule it names.
  const text = (s: { lines: { text: string }[] }) => s.lines.map((l) => l.text).join('\n');

  it('reads a contents page titled only "Contents" whose items list their sub-headings, not page numbers', () => {
    const pages = [
      '  Contents\nPART I\nITEM 1. BUSINESS\n  Regulatory Environment\n  Competition\nITEM 1A. RISK ' +
        'FACTORS\nITEM 2. PROPERTIES\nITEM 3. LEGAL PROCEEDINGS\nITEM 7. MANAGEMENT’S DISCUSSION AND ' +
        'ANALYSIS\n  OVERVIEW\n  LIQUIDITY\nITEM 8. FINANCIAL STATEMENTS',
      'ITEM 1. BUSINESS\nThe Utility delivers electricity and natural gas to customers in one state.\nITEM ' +
        '1A. RISK FACTORS\nWildfires could cause losses.\nITEM 3. LEGAL PROCEEDINGS\nSee Note 9.\nITEM 7. ' +
        'MANAGEMENT’S DISCUSSION AND ANALYSIS\nRevenue rose.',
    ];
    expect(segmentFiling('10-K', pages).map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 1],
      ['10K-Item-1A', 1],
      ['10K-Item-3', 1],
      ['10K-Item-7', 1],
    ]);
  });

  it('does not take a reference wrapped below a line of prose, or closing a parenthesis, for a heading', () => {
    const pages = [
      'ITEM 1. BUSINESS\nThe Utility recovers costs through balancing accounts. For more information, see ' +
        'Note 4 of the Notes in\nItem 8.\nDifferences between forecast and actual costs (discussed in Results ' +
        'of Operations in\nItem 7. MD&A) can occur for many reasons.',
      'ITEM 1A. RISK FACTORS\nWildfires could cause losses.\nITEM 7. MANAGEMENT’S DISCUSSION AND ' +
        'ANALYSIS\nRevenue rose.\nITEM 8. FINANCIAL STATEMENTS\nBalance sheet.',
    ];
    const found = segmentFiling('10-K', pages);
    expect(found.map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 0],
      ['10K-Item-1A', 1],
      ['10K-Item-7', 1],
      ['10K-Item-8', 1],
    ]);
    expect(text(found[0]!)).toContain('can occur for many reasons');
  });

  it('finds no heading in EDGAR’s block of links above the cover page', () => {
    const pages = [
      'Use these links to rapidly review the document\nTABLE OF CONTENTS\nItem 8. FINANCIAL STATEMENTS AND ' +
        'SUPPLEMENTARY DATA\n\nUNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K',
      'ITEM 1. BUSINESS\nExample Widgets designs widgets.\nITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY ' +
        'DATA\nBalance sheet.',
    ];
    expect(segmentFiling('10-K', pages).map((s) => s.itemTag)).toEqual(['10K-Item-1', '10K-Item-8']);
  });

  it('gives Items 7 and 8 the MD&A and the statements that pointer items say are printed after Part IV', () => {
    const notes = 'Revenue is recognized when control of the goods passes to the customer at shipment.\n'.repeat(130);
    const pages = [
      'ITEM 1. BUSINESS\nExample Widgets designs widgets.\nITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY ' +
        'DATA\nThe consolidated financial statements listed in Part IV, Item 15(a)(1) are included immediately ' +
        'following Part IV hereof.',
      'ITEM 15. EXHIBITS, FINANCIAL STATEMENT SCHEDULES\n(a)(1) Financial statements: see the Index to ' +
        'Financial Statements.\nReport of Independent Registered Public Accounting Firm   F-2\nITEM 16. FORM ' +
        '10-K SUMMARY\nNone.',
      `INDEX TO FINANCIAL STATEMENTS\nReport of Independent Registered Public Accounting Firm   ` +
        `37\nConsolidated Balance Sheets   39\nREPORT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM\nWe ` +
        `have audited the balance sheets.\nCONSOLIDATED BALANCE SHEETS\nCash   $   512   $   474\n${notes}`,
      'EXHIBIT INDEX\n10.1 Credit agreement',
    ];
    const found = segmentFiling('10-K', pages);
    expect(found.map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 0],
      ['10K-Item-8', 0],
      ['10K-Item-15', 1],
      ['10K-Item-16', 1],
      ['10K-Item-8', 2],
      ['10K-Item-16', 3],
    ]);
    expect(text(found[4]!)).toMatch(
      /^INDEX TO FINANCIAL STATEMENTS[\s\S]*CONSOLIDATED BALANCE SHEETS[\s\S]*Revenue is recognized/,
    );
    expect(text(found[5]!)).toContain('Credit agreement');
    // An Item 7 that points at the annual report's MD&A under a heading it names: that run is Item 7's.
    const mdna =
      'Revenue rose because more widgets were sold to industrial customers in every region this year.\n'.repeat(130);
    const withMdna = [
      pages[0]!.replace(
        'ITEM 8.',
        'ITEM 7. MANAGEMENT’S DISCUSSION AND ANALYSIS\nInformation required by this item is incorporated by ' +
          'reference from the discussion under the heading Financial Review in our 2024 Financial ' +
          'Report.\nITEM 8.',
      ),
      pages[1]!,
      `Financial Review\n${mdna}`,
      ...pages.slice(2),
    ];
    expect(segmentFiling('10-K', withMdna).map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 0],
      ['10K-Item-7', 0],
      ['10K-Item-8', 0],
      ['10K-Item-15', 1],
      ['10K-Item-16', 1],
      ['10K-Item-7', 2],
      ['10K-Item-8', 3],
      ['10K-Item-16', 4],
    ]);
    // An Item 8 that prints the statements itself keeps everything after Part IV where it is.
    const own = [pages[0]!.replace(/The consolidated financial statements listed[^\n]*/, notes), ...pages.slice(1)];
    expect(segmentFiling('10-K', own).filter((s) => s.itemTag === '10K-Item-8')).toHaveLength(1);
  });

  it('finds the MD&A and statements of an annual report filed as Exhibit 13, and those an Item 8 only lists', () => {
    const notes = 'Revenue is recognized when control of the goods passes to the customer at shipment.\n'.repeat(130);
    const mdna =
      'Revenue rose because more widgets were sold to industrial customers in every region this year.\n'.repeat(130);
    const pointer = (what: string) =>
      `The information required by this item is incorporated by reference to ${what} included in our Annual ` +
      `Report to Shareholders, Exhibit 13.`;
    const pages = [
      'ITEM 1. BUSINESS\nExample Widgets designs widgets.',
      `ITEM 7. MANAGEMENT’S DISCUSSION AND ANALYSIS\n` +
        pointer(`the caption "Management's Discussion and Analysis of Financial Condition and Results of Operations"`) +
        `\nITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY ` +
        `DATA\n${pointer('the captions "Consolidated Statements of Income" and "Consolidated Balance Sheets"')}`,
      'ITEM 15. EXHIBITS, FINANCIAL STATEMENT SCHEDULES\n13 Annual Report to ' +
        'Shareholders\nSIGNATURES\nExample Widgets, Inc.',
      // The annual report numbers its MD&A in its own sequence and prints the auditor's report after the notes.
      `Exhibit 13\nItem 2. Management's Discussion and Analysis of Financial Condition and Results of ` +
        `Operations\n${mdna}The Consolidated Statements of Cash Flows show the cash used.`,
      'Consolidated Statements of Income\nNet sales   $   512   $   474',
      'Consolidated Balance Sheets\nCash   $   90   $   80',
      `Consolidated Statements of Cash Flows\nPurchases of property   (41)   (38)\n${notes}Report of ` +
        `Independent Registered Public Accounting Firm\nWe have audited the statements.`,
      'Exhibit 21\nSubsidiaries of the registrant',
    ];
    const found = segmentFiling('10-K', pages);
    expect(found.map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 0],
      ['10K-Item-7', 1],
      ['10K-Item-8', 1],
      ['10K-Item-15', 2],
      ['10K-Item-7', 3],
      ['10K-Item-8', 4],
      ['10K-Item-15', 7],
    ]);
    // a statement named in prose stays
    expect(text(found[4]!)).toMatch(/^Item 2\. Management's Discussion[\s\S]*show the cash used\.$/);
    expect(text(found[5]!)).toMatch(/^Consolidated Statements of Income[\s\S]*We have audited the statements\.$/);
    // An Item 8 longer than a pointer that lists the statements' pages (and the quarterly results) but prints none.
    const quarters = 'Net sales   $   120   $   126   $   130   $   136\n'.repeat(30);
    const listing = [
      pages[0]!,
      `ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA\nThe following documents are filed as part of ` +
        `Item 8 on the pages listed below:\nConsolidated Balance Sheets   41\nConsolidated Statements of ` +
        `Income   42\nQuarterly Results (unaudited)\n${quarters}`,
      'ITEM 15. EXHIBITS, FINANCIAL STATEMENT SCHEDULES\nSee Item 8.\nSIGNATURES\nExample Widgets, Inc.',
      `REPORT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM\nWe have audited the ` +
        `statements.\nCONSOLIDATED BALANCE SHEETS\nCash   $   90   $   80\n${notes}`,
      'EXHIBIT INDEX\n10.1 Credit agreement',
    ];
    expect(segmentFiling('10-K', listing).map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 0],
      ['10K-Item-8', 1],
      ['10K-Item-15', 2],
      ['10K-Item-8', 3],
      ['10K-Item-15', 4],
    ]);
  });

  it('gives Item 8 the statements printed at the end of the MD&A when Item 8 only points elsewhere', () => {
    const notes = 'Revenue is recognized when control of the goods passes to the customer at shipment.\n'.repeat(130);
    const pages = [
      'ITEM 7. MANAGEMENT’S DISCUSSION AND ANALYSIS\nNet sales grew 8% to $512 million. The Consolidated ' +
        'Statement of Cash Flows shows the cash used.',
      'Table of Contents\nConsolidated Statement of Income\nExample Widgets, Inc. and Subsidiaries\nNet ' +
        'sales   $   512   $   474',
      'Table of Contents\nConsolidated Statement of Cash Flows\nPurchases of property   (41)   (38)',
      `Table of Contents\nConsolidated Balance Sheet\nCash   $   90   $   80\n${notes}`,
      'ITEM 7A. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK\nIncluded in Item 7.\nITEM 8. ' +
        'FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA\nSee Item 15.\nITEM 9A. CONTROLS AND ' +
        'PROCEDURES\nEffective.',
    ];
    const found = segmentFiling('10-K', pages);
    expect(found.map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-7', 0],
      ['10K-Item-8', 1],
      ['10K-Item-7A', 4],
      ['10K-Item-8', 4],
      ['10K-Item-9A', 4],
    ]);
    expect(text(found[0]!)).toContain('The Consolidated Statement of Cash Flows shows'); // a statement named in prose
    expect(text(found[1]!)).toMatch(/^Consolidated Statement of Income[\s\S]*Revenue is recognized/);
    // Two primary statements are a table or two in the MD&A, not the statements: Item 7 stays whole.
    const two = [pages[0]!, pages[1]!, pages[3]!, pages[4]!];
    expect(segmentFiling('10-K', two).filter((s) => s.itemTag === '10K-Item-8')).toHaveLength(1);
  });

  it('gives Item 1 the body between the contents and Item 1A when the Item 1 heading was lost', () => {
    const pages = [
      'FORM 10-K\nEXAMPLE WIDGETS INC',
      'Table of Contents\nItem 1. Business   3\nItem 1A. Risk Factors   4\nItem 2. Properties   5\nItem 7. ' +
        'Management’s Discussion and Analysis   6',
      'Table of Contents\nGeneral\nExample Widgets is a diversified technology company with four business segments.',
      'More about the segments.\nItem 1A. Risk Factors\nOur suppliers could fail to deliver parts on time.',
    ];
    const found = segmentFiling('10-K', pages);
    expect(found.map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 2],
      ['10K-Item-1A', 3],
    ]);
    expect(text(found[0]!)).toContain('diversified technology company');
    expect(text(found[0]!)).toContain('More about the segments.');
    expect(text(found[0]!)).not.toContain('Our suppliers');
  });
});

describe('segmentFiling (10-K laid out as an annual report, with a cross-reference index)', () => {
  // Invented: Arbelion Power prints no Item headings; page footers carry printed numbers one ahead of the PDF page.
  const footer = (n: number) => `   Arbelion Power 2023 Annual Report ${n}`;
  const body = (title: string, n: number, extra = '') =>
    `${title}\nArbelion Power sells electricity in three states.${extra}\n${footer(n)}`;
  const pages = [
    'UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nArbelion Power, Inc.',
    body('OUR BUSINESS', 2),
    body('ABOUT OUR GRID', 3),
    body("MANAGEMENT'S DISCUSSION AND ANALYSIS", 4, '\nRevenue rose 4% in 2023, as Item 7 of last year predicted.'),
    body('MARKET RISK', 5),
    body('RISK FACTORS', 6),
    body('Consolidated Statement of Income', 7),
    body('Notes to Consolidated Financial Statements', 8),
    body('Report of Independent Registered Public Accounting Firm', 9),
    [
      'Form 10-K Cross-Reference Index',
      'Item Number   Item',
      'Part I',
      'Item 1.   Business:',
      '   Description of business   Pages 2-3',
      '   Available information   Page 3',
      'Item 1A.   Risk Factors   Page 6',
      'Item 1B.   Unresolved Staff Comments   Not applicable',
      'Part II',
      'Item 7.   Operations:',
      '   Results of operations   Pages 4-5',
      'Item 7A.   Quantitative and Qualitative Disclosures About Market Risk   Page 5',
      'Item 8.   Financial Statements and Supplementary Data   Pages 7-8',
      'Item 15.   Exhibits and Financial Statement Schedules   Page 12',
      'Signatures   Page 11',
      footer(10),
    ].join('\n'),
    body('Signatures', 11),
    body('Exhibit 10.1 Credit Agreement', 12),
  ];

  it('assigns every page after the cover to the narrowest item the index names', () => {
    const sections = segmentFiling('10-K', pages);
    expect(sections.map((s) => [s.itemTag, s.heading.page])).toEqual([
      ['10K-Item-1', 1],
      ['10K-Item-7', 3],
      ['10K-Item-7A', 4], // pages 4-5 are MD&A, page 5 is also market risk: the narrower range wins
      ['10K-Item-1A', 5],
      ['10K-Item-8', 6], // pages 7-8; the auditor's report and the signatures page, named by no item, continue it
      ['10K-Item-15', 11],
    ]);
    expect(sections.find((s) => s.itemTag === '10K-Item-7')!.title).toBe(
      "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    );
    expect(sections.flatMap((s) => s.lines).some((l) => l.page === 9)).toBe(false); // the index page itself
    expect(sections.flatMap((s) => s.lines).some((l) => l.page === 0)).toBe(false); // the cover
  });

  it('gives pages after the last named one (appended exhibits) to Item 15', () => {
    const shifted = pages.map((p) =>
      p.replace(
        'Exhibits and Financial Statement Schedules   Page 12',
        'Exhibits and Financial Statement Schedules   Page 11',
      ),
    );
    const sections = segmentFiling('10-K', shifted);
    expect(sections[sections.length - 1]!.itemTag).toBe('10K-Item-15');
    expect(sections[sections.length - 1]!.heading.page).toBe(10);
    expect(sections[sections.length - 1]!.lines.some((l) => l.page === 11)).toBe(true);
  });

  it('leaves a filing without headings or an index unsegmented rather than guessing', () => {
    expect(segmentFiling('10-K', pages.slice(0, 9))).toEqual([]);
  });
});

describe('segmentFiling (10-Q)', () => {
  it('tags items by part', () => {
    const pages = [
      'PART I — FINANCIAL INFORMATION\nItem 1. Financial Statements\nRevenue   $   10   $   9\nItem 2. ' +
        'Management’s Discussion and Analysis\nRevenue rose on higher volumes in the quarter.',
      'PART II — OTHER INFORMATION\nItem 1. Legal Proceedings\nThere were no material legal proceedings ' +
        'during the quarter.\nItem 2. Unregistered Sales of Equity Securities and Use of Proceeds\nThe company ' +
        'repurchased 1,000 shares during the quarter.',
    ];
    expect(segmentFiling('10-Q', pages).map((s) => s.itemTag)).toEqual([
      '10Q-PartI-Item-1',
      '10Q-PartI-Item-2',
      '10Q-PartII-Item-1',
      '10Q-PartII-Item-2',
    ]);
  });
});

// Invented 10-Q layouts, one trap each (written for these tests).
const tags = (pages: string[]) =>
  segmentFiling('10-Q', pages).map((s) => `${s.itemTag}@${s.heading.page}:${s.heading.lineNo}`);
const textOf = (pages: string[], tag: string) =>
  segmentFiling('10-Q', pages)
    .filter((s) => s.itemTag === tag)
    .flatMap((s) => s.lines.map((l) => l.text))
    .join('\n');

describe('segmentFiling (10-Q layouts)', () => {
  const cover = 'ORCHARD LANTERN CORP\nQUARTERLY REPORT ON FORM 10-Q\nFor the quarterly period ended April 30, 2025';
  const toc =
    'INDEX\nPART I   Page\nItem 1. Financial Statements   3\nItem 2. Management’s Discussion and Analysis   ' +
    '9\nItem 3. Quantitative and Qualitative Disclosures About Market Risk   14\nItem 4. Controls and ' +
    'Procedures   15\nPART II\nItem 1. Legal Proceedings   16\nItem 1A. Risk Factors   16\nItem 6. Exhibits  ' +
    ' 17';

  it(`takes Part II from the item title when the PART II line is missing, and keeps cross-references in their \
item`, () => {
    const pages = [
      cover,
      toc,
      'PART I. FINANCIAL INFORMATION\nItem 1. Financial Statements\nLantern sales   $   40   $   35',
      'Item 2. Management’s Discussion and Analysis\nSales of lanterns rose on orchard demand. For risks ' +
        'see\nItem 1A. Risk Factors—Orchard Supply in our annual report, which describes frost risk in detail ' +
        'for every region we serve.\nItem 4. Controls and Procedures\nOur controls were effective.',
      'Item 1. Legal Proceedings\nSee Note 5 in\nItem 1. “Financial Statements” in Part I.\nItem 3. Defaults ' +
        'Upon Senior Securities\nNone.\nItem 6. Exhibits\n31.1 Certification of the chief executive officer',
    ];
    expect(tags(pages)).toEqual([
      '10Q-PartI-Item-1@2:1',
      '10Q-PartI-Item-2@3:0',
      '10Q-PartI-Item-4@3:3',
      '10Q-PartII-Item-1@4:0',
      '10Q-PartII-Item-3@4:3',
      '10Q-PartII-Item-6@4:5',
    ]);
    expect(textOf(pages, '10Q-PartI-Item-2')).toContain('Item 1A. Risk Factors—Orchard Supply');
    expect(textOf(pages, '10Q-PartII-Item-1')).toContain('“Financial Statements” in Part I.');
  });

  it('starts no item after SIGNATURES: an appended exhibit’s "Item 1." stays in Part II Item 6', () => {
    const pages = [
      cover,
      'PART I\nItem 1. Financial Statements\nLantern sales   $   40   $   35\nPART II\nItem 6. ' +
        'Exhibits\n32.1 Certification',
      'SIGNATURES\nPursuant to the requirements of the Securities Exchange Act of 1934 the registrant has ' +
        'duly caused this report to be signed.',
      'EXHIBIT 10.1 SUPPLY AGREEMENT\nItem 1. Definitions\nWicks means the cotton wicks described in Schedule A.',
    ];
    expect(tags(pages)).toEqual(['10Q-PartI-Item-1@1:1', '10Q-PartII-Item-6@1:4']);
    expect(textOf(pages, '10Q-PartII-Item-6')).toContain('Wicks means the cotton wicks');
  });

  it(`starts Part I Item 1 at the first statement (with its company line) when the filing prints no Item 1 \
heading`, () => {
    const pages = [
      cover,
      toc,
      'Table of Contents\nORCHARD LANTERN CORP\nCondensed Consolidated Statements of Operations\nLantern ' +
        'sales   $   40   $   35',
      'Item 2. Management’s Discussion and Analysis\nSales of lanterns rose.',
    ];
    expect(tags(pages)).toEqual(['10Q-PartI-Item-1@2:1', '10Q-PartI-Item-2@3:0']);
  });

  it('reads an MD&A-first report without Item 1/2 headings: the pages before the statements are Item 2', () => {
    const mdna = (n: number) =>
      `MANAGEMENT OVERVIEW ${n}\nThe firm’s lantern lending grew in the quarter, and deposits rose with ` +
      `orchard activity across regions.`;
    const pages = [
      cover,
      toc,
      mdna(1),
      mdna(2),
      mdna(3),
      mdna(4),
      'ORCHARD LANTERN CORP\nConsolidated statements of income (unaudited)\nLantern fees   $   12   $   10',
      'Item 3. Quantitative and Qualitative Disclosures About Market Risk\nRefer to the market risk ' +
        'section.\nItem 4. Controls and Procedures\nEffective.',
    ];
    expect(tags(pages)).toEqual([
      '10Q-PartI-Item-2@2:0',
      '10Q-PartI-Item-1@6:0',
      '10Q-PartI-Item-3@7:0',
      '10Q-PartI-Item-4@7:2',
    ]);
  });

  it('reads a report of bare section titles (no "Item" headings), in order: statements, MD&A, the rest', () => {
    const pages = [
      cover,
      'Contents\nConsolidated Condensed Statements of Income   4\nManagement’s Discussion and Analysis ' +
        '(MD&A)\nRisk Factors   20\nExhibits   22',
      'Consolidated Condensed Statements of Income\nLantern sales   $   40   $   35\nLegal Proceedings\nA ' +
        'wick supplier sued us over unpaid invoices; we dispute the claim.',
      'Management’s Discussion and Analysis\nSales of lanterns rose on orchard demand.',
      'Risk Factors\nThe risks in our annual report still apply.\nControls and Procedures\nOur controls were ' +
        'effective.\nExhibits\n31.1 Certification',
    ];
    expect(tags(pages)).toEqual([
      '10Q-PartI-Item-1@2:0',
      '10Q-PartI-Item-2@3:0',
      '10Q-PartII-Item-1A@4:0',
      '10Q-PartI-Item-4@4:2',
      '10Q-PartII-Item-6@4:4',
    ]);
    expect(textOf(pages, '10Q-PartI-Item-1')).toContain('A wick supplier sued us');
  });

  it('lets a bare running header ("PART I / Item 1" on every page) give way to the titled heading below it', () => {
    const pages = [
      cover,
      'PART I\nItem 1\n\nITEM 1. FINANCIAL STATEMENTS\nLantern sales   $   40   $   35',
      'PART I\nItem 1\nLantern costs   $   20   $   18',
      'PART I\nItem 2\nITEM 2. MANAGEMENT’S DISCUSSION AND ANALYSIS\nSales of lanterns rose.',
    ];
    expect(tags(pages)).toEqual(['10Q-PartI-Item-1@1:3', '10Q-PartI-Item-2@3:2']);
  });
});

describe('10-Q segmentation agreement with the hand labels (../shared)', () => {
  const filings = sharedDir() ? join(sharedDir()!, 'corpus/filings') : null;
  it.skipIf(!filings || !existsSync(join(filings, 'pages.jsonl.gz')))(
    'puts at least 98% of characters in the labelled item and finds 95% of the labelled headings (npm run ' +
      'eval:items10q)',
    async () => {
      const { total, filings: n } = await evalItems10Q(filings!);
      expect(n.length).toBeGreaterThanOrEqual(20);
      expect(total.correct / total.chars).toBeGreaterThanOrEqual(0.98);
      expect(total.matched / total.labelled).toBeGreaterThanOrEqual(0.95);
      expect(total.matched / total.predicted).toBeGreaterThanOrEqual(0.95);
    },
  );
});

describe('statements', () => {
  it('detects flattened table rows', () => {
    expect(isTableRow('Net sales   $   512   $   474')).toBe(true);
    expect(isTableRow('Purchases of property, plant and equipment   (41)   (38)')).toBe(true);
    expect(isTableRow('Net sales grew in fiscal 2024.')).toBe(false);
  });

  it('splits sentences but not after abbreviations', () => {
    expect(splitSentences('Sales rose in the U.S. market. Costs fell by 2%. Example Inc. gained share.')).toEqual([
      'Sales rose in the U.S. market.',
      'Costs fell by 2%.',
      'Example Inc. gained share.',
    ]);
  });

  it('does not split a legal citation at its abbreviations', () => {
    // Written for this test: a case name and its court as Item 3 lists them.
    const text =
      'Retirement System of Lakeside v. Example Stores, Inc., Sup. Ct. of Del., Cty. of Harbor, filed 2023. ' +
      'The case is pending.';
    expect(splitSentences(text)).toEqual([
      'Retirement System of Lakeside v. Example Stores, Inc., Sup. Ct. of Del., Cty. of Harbor, filed 2023.',
      'The case is pending.',
    ]);
  });

  it('turns table rows into statements with their column header and marks forward-looking sentences', () => {
    const [, , item7, item8] = segmentFiling('10-K', PAGES);
    const rows = extractStatements(item8!);
    const capex = rows.find((r) => r.text.startsWith('Purchases of property'));
    expect(capex).toMatchObject({ kind: 'table_row', status: 'FACT', page: 4 });
    expect(capex!.text).toBe(
      'Purchases of property, plant and equipment: (41) for FY2024 | (38) for FY2023 (USD millions)',
    );
    expect(capex!.fact!.cells.map((c) => c.value)).toEqual([-41, -38]);
    const mdna = extractStatements(item7!);
    expect(mdna.find((s) => s.text.startsWith('We expect'))?.status).toBe('PREDICTION');
    expect(mdna.find((s) => s.text.startsWith('Net sales grew'))?.status).toBe('FACT');
  });
});

describe('segmentation agreement with the real EDGAR item splits (../shared)', () => {
  const dir = sharedDir() ? join(sharedDir()!, 'corpus/edgar-items') : null;
  it.skipIf(!dir || !existsSync(join(dir, 'items.jsonl.gz')))(
    'puts at least 97% of characters in the right item (94% with a table of contents in front) (npm run eval:items)',
    async () => {
      const { overall } = await evalItems(dir!);
      expect(overall.correct / overall.chars).toBeGreaterThanOrEqual(0.97);
      const withToc = await evalItems(dir!, { toc: true });
      expect(withToc.overall.correct / withToc.overall.chars).toBeGreaterThanOrEqual(0.94);
    },
  );
});
