import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalItems } from '../../index-builder/eval/items';
import { sharedDir } from '../../index-builder/shared-dir';
import { segmentFiling } from '../../index-builder/segment';
import { extractStatements, isTableRow, splitSentences } from '../../index-builder/statements';

// Written for this test: a table-of-contents page, items with running headers, an in-sentence reference.
const PAGES = [
  'EXAMPLE WIDGETS INC\nANNUAL REPORT ON FORM 10-K\nFor the fiscal year ended June 30, 2024',
  'Table of Contents\nItem 1. Business   3\nItem 1A. Risk Factors   4\nItem 2. Properties   5\nItem 7. Management’s Discussion and Analysis   6\nItem 8. Financial Statements   7',
  'PART I\nItem 1. Business\nExample Widgets designs widgets for industrial customers in three regions.\nSee Item 7 of this report for a discussion of results.\nItem 1A. Risk Factors\nOur suppliers could fail to deliver parts on time, which could adversely affect our results.',
  'Table of Contents\nPART II\nItem 7. Management’s Discussion and Analysis\nNet sales grew 8% to $512 million in fiscal 2024.\nWe expect net sales to grow in fiscal 2025.\n12',
  'Item 8. Financial Statements\n(In millions)\n   2024   2023\nNet sales   $   512   $   474\nPurchases of property, plant and equipment   (41)   (38)\nItem 7 Management’s Discussion and Analysis\nThis line repeats an old heading and must stay in Item 8.',
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
});

describe('segmentFiling (10-Q)', () => {
  it('tags items by part', () => {
    const pages = [
      'PART I — FINANCIAL INFORMATION\nItem 1. Financial Statements\nRevenue   $   10   $   9\nItem 2. Management’s Discussion and Analysis\nRevenue rose on higher volumes in the quarter.',
      'PART II — OTHER INFORMATION\nItem 1. Legal Proceedings\nThere were no material legal proceedings during the quarter.\nItem 2. Unregistered Sales of Equity Securities and Use of Proceeds\nThe company repurchased 1,000 shares during the quarter.',
    ];
    expect(segmentFiling('10-Q', pages).map((s) => s.itemTag)).toEqual([
      '10Q-PartI-Item-1', '10Q-PartI-Item-2', '10Q-PartII-Item-1', '10Q-PartII-Item-2',
    ]);
  });
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

  it('turns table rows into statements with their column header and marks forward-looking sentences', () => {
    const [, , item7, item8] = segmentFiling('10-K', PAGES);
    const rows = extractStatements(item8!);
    const capex = rows.find((r) => r.text.startsWith('Purchases of property'));
    expect(capex).toMatchObject({ kind: 'table_row', status: 'FACT', page: 4 });
    expect(capex!.text).toBe('Purchases of property, plant and equipment: (41) for FY2024 | (38) for FY2023 (USD millions)');
    expect(capex!.fact!.cells.map((c) => c.value)).toEqual([-41, -38]);
    const mdna = extractStatements(item7!);
    expect(mdna.find((s) => s.text.startsWith('We expect'))?.status).toBe('PREDICTION');
    expect(mdna.find((s) => s.text.startsWith('Net sales grew'))?.status).toBe('FACT');
  });
});

describe('segmentation agreement with the real EDGAR item splits (../shared)', () => {
  const dir = sharedDir() ? join(sharedDir()!, 'corpus/edgar-items') : null;
  it.skipIf(!dir || !existsSync(join(dir, 'items.jsonl.gz')))('puts at least 97% of characters in the right item (94% with a table of contents in front) (npm run eval:items)', async () => {
    const { overall } = await evalItems(dir!);
    expect(overall.correct / overall.chars).toBeGreaterThanOrEqual(0.97);
    const withToc = await evalItems(dir!, { toc: true });
    expect(withToc.overall.correct / withToc.overall.chars).toBeGreaterThanOrEqual(0.94);
  });
});
