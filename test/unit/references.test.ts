import { describe, expect, it } from 'vitest';
import { buildShardEdges, type GraphInput } from '../../index-builder/graph/evidence-graph';
import { filingNotes, noteTitle, referenceLinks, type PlacedStatement } from '../../index-builder/segment/references';
import { segmentFiling } from '../../index-builder/segment/segment';
import { extractStatements } from '../../index-builder/statements/statements';

// Invented 10-K pages: Item 3 answers by pointing at a note; the note has a "Legal Proceedings" subheading.
const PAGES = [
  'ITEM 1. BUSINESS\nExample Widgets designs widgets for industrial customers. See Note 2 for our revenue by ' +
    'region, which grew this year.',
  'ITEM 3. LEGAL PROCEEDINGS\nFor a discussion of legal proceedings, see Note 3 to the Consolidated ' +
    'Financial Statements, which is incorporated herein by reference.',
  'ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA\nNotes to Consolidated Financial Statements\nNote 1 — ' +
    'Summary of Significant Accounting Policies\nThe statements include the accounts of the company and its ' +
    'subsidiaries.\nNote 2 — Revenue\nRevenue is recognized when control of the goods passes to the ' +
    'customer.\nNote 3 — Commitments and Contingencies\nThe company leases its plants under operating leases ' +
    'that expire through 2031.\nLegal Proceedings\nA distributor sued the company in 2023 alleging breach of a ' +
    'supply contract.\nThe company believes the claims are without merit and is defending itself.\nA court ' +
    'dismissed a patent claim against the company in March 2024.\nNote 4 — Income Taxes\nThe effective tax ' +
    'rate was 21 percent.',
];

function placed() {
  const sections = segmentFiling('10-K', PAGES);
  const statements: PlacedStatement[] = sections.flatMap((section) =>
    extractStatements(section, '10-K').map((s) => ({ ...s, section })),
  );
  return { sections, statements };
}

describe('items incorporated by reference from a note', () => {
  it('reads note headings, not contents lines or lists', () => {
    expect(noteTitle('Commitments and Contingencies')).toBe('Commitments and Contingencies');
    expect(noteTitle('Intangible Assets. During the quarter we recorded an impairment.')).toBe('Intangible Assets');
    expect(noteTitle('Income Taxes   87')).toBeNull();
    expect(noteTitle('Financial Statements:')).toBeNull();
    expect(noteTitle('unless otherwise agreed with the Company')).toBeNull();
    const { sections } = placed();
    expect([...filingNotes(sections)].map(([n, s]) => [n, s.title])).toEqual([
      [1, 'Summary of Significant Accounting Policies'],
      [2, 'Revenue'],
      [3, 'Commitments and Contingencies'],
      [4, 'Income Taxes'],
    ]);
  });

  it('links a short item’s pointer to the sentences under the note’s subheading that repeats the item’s title', () => {
    const { sections, statements } = placed();
    const links = referenceLinks(sections, statements);
    const pointer = statements.findIndex((s) => s.text.startsWith('For a discussion of legal proceedings'));
    expect(links[pointer]!.map((d) => statements[pointer + d]!.text)).toEqual([
      'A distributor sued the company in 2023 alleging breach of a supply contract.',
      'The company believes the claims are without merit and is defending itself.',
      'A court dismissed a patent claim against the company in March 2024.',
    ]);
  });

  it('follows the note that carries the item’s title when a pointer names several, and a subsection it names', () => {
    const linked = (pages: string[], pointerStart: string) => {
      const sections = segmentFiling('10-K', pages);
      const statements: PlacedStatement[] = sections.flatMap((section) =>
        extractStatements(section, '10-K').map((s) => ({ ...s, section })),
      );
      const links = referenceLinks(sections, statements);
      const pointer = statements.findIndex((s) => s.text.startsWith(pointerStart));
      return links[pointer]!.map((d) => statements[pointer + d]!.text);
    };
    const notes = (legalHeading: string) =>
      'ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA\nNotes to Consolidated Financial Statements\nNote ' +
      '1 — Income Taxes\n' +
      'The effective tax rate was 21 percent.\nUncertain tax positions are reviewed each quarter.\nNote 2 — ' +
      'Commitments and Contingencies\n' +
      'The company leases its plants under operating leases that expire through 2031.\nGuarantees\nThe ' +
      'company guarantees the debt of a joint venture.\n' +
      `${legalHeading}\nA distributor sued the company in 2023 alleging breach of a supply contract.\nThe ` +
      `company believes the claims are without merit.`;
    const item3 = (pointer: string) => `ITEM 3. LEGAL PROCEEDINGS\n${pointer}`;
    // Two notes named; the second is the one whose subheading repeats the item's title.
    expect(
      linked(
        [
          PAGES[0]!,
          item3(
            'The material set forth in Note 1 (tax contingencies) and Note 2 (legal contingencies) is ' +
              'incorporated herein by reference.',
          ),
          notes('Legal Proceedings'),
        ],
        'The material set forth',
      ),
    ).toEqual([
      'A distributor sued the company in 2023 alleging breach of a supply contract.',
      'The company believes the claims are without merit.',
    ]);
    // The pointer names the subsection in quotes.
    expect(
      linked(
        [
          PAGES[0]!,
          item3('See “Litigation” in Note 2 of the accompanying notes, which is incorporated herein by reference.'),
          notes('Litigation'),
        ],
        'See “Litigation”',
      )[0],
    ).toBe('A distributor sued the company in 2023 alleging breach of a supply contract.');
    // Neither: a subheading sharing a word of the item's short title.
    expect(
      linked(
        [
          PAGES[0]!,
          item3('See Note 2 to the Consolidated Financial Statements, which is incorporated herein by reference.'),
          notes('Litigation and Regulatory Proceedings'),
        ],
        'See Note 2 to the',
      )[0],
    ).toBe('A distributor sued the company in 2023 alleging breach of a supply contract.');
    // No marked line: the note's first sentences, as before.
    expect(
      linked(
        [
          PAGES[0]!,
          item3('See Note 2 to the Consolidated Financial Statements, which is incorporated herein by reference.'),
          notes('Other Matters'),
        ],
        'See Note 2 to the',
      )[0],
    ).toBe('The company leases its plants under operating leases that expire through 2031.');
  });

  it(`links nothing from an item that states its own disclosure at length, or to a note the filing does not \
print`, () => {
    const long = [
      `ITEM 1. ` +
        `BUSINESS\n${'Example Widgets designs widgets for industrial customers in many markets. '.repeat(25)}See ` +
        `Note 2 for revenue by region.`,
      ...PAGES.slice(1),
    ];
    const sections = segmentFiling('10-K', long);
    const statements: PlacedStatement[] = sections.flatMap((section) =>
      extractStatements(section, '10-K').map((s) => ({ ...s, section })),
    );
    const links = referenceLinks(sections, statements);
    expect(statements.filter((s, i) => s.section.itemTag === '10K-Item-1' && links[i]!.length)).toEqual([]);
    const missing = ['ITEM 3. LEGAL PROCEEDINGS\nSee Note 9 to the Consolidated Financial Statements.', PAGES[2]!];
    const s2 = segmentFiling('10-K', missing);
    const st2: PlacedStatement[] = s2.flatMap((section) =>
      extractStatements(section, '10-K').map((s) => ({ ...s, section })),
    );
    expect(referenceLinks(s2, st2).every((l) => l.length === 0)).toBe(true);
  });

  it('stores the links as `refers` edges inside the pointer’s filing only', () => {
    const base = { kind: 'sentence' as const, status: 'FACT' as const, metrics: [], itemTag: '10K-Item-3' };
    const statements: GraphInput[] = [
      { ...base, filing: 0, text: 'See Note 3.', refers: [1, 2, 3] },
      { ...base, filing: 0, itemTag: '10K-Item-8', text: 'A distributor sued the company.' },
      { ...base, filing: 0, itemTag: '10K-Item-8', text: 'The company is defending itself.' },
      { ...base, filing: 1, itemTag: '10Q-PartI-Item-1', text: 'Another filing.' },
    ];
    expect(buildShardEdges(statements)[0]).toEqual([
      { target: 1, kind: 'refers' },
      { target: 2, kind: 'refers' },
    ]);
  });
});
