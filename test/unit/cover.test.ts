// The cover page section (index-builder/segment/cover.ts): found by the form's header, its check-box questions and
// field
// captions left out, its Section 12(b) table read one security per statement. The pages are invented.
import { describe, expect, it } from 'vitest';
import { coverSection, coverStatements } from '../../index-builder/segment/cover';
import { segmentFiling } from '../../index-builder/segment/segment';

const COVER = [
  '   UNITED STATES',
  '   SECURITIES AND EXCHANGE COMMISSION',
  '   Washington, D.C. 20549',
  '   FORM 10-K',
  '   ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
  '   For the fiscal year ended June 30, 2023',
  '   ZENHARROW HOLDINGS INC.',
  '   (Exact name of registrant as specified in its charter)',
  '   Securities registered pursuant to Section 12(b) of the Act:',
  '   Title of each class   Trading Symbol(s)   Name of each exchange on which registered',
  '   Common Stock, par value $0.10 per share   ZNH   New York Stock Exchange',
  '   2.250% Senior Notes due 2029   ZNH29   New York Stock Exchange',
  '   Securities registered pursuant to Section 12(g) of the Act: None',
  'Indicate by check mark whether the registrant (1) has filed all reports required to be filed by Section ' +
    '13 or 15(d) of the',
  'Securities Exchange Act of 1934 during the preceding 12 months. Yes x No o',
  'Large accelerated filer ☒   Accelerated filer ☐   Non-accelerated filer ☐',
  'The aggregate market value of the common stock held by non-affiliates of the registrant was $4.1 billion ' +
    'as of December 30, 2022.',
  'As of August 10, 2023, the registrant had 212,004,118 shares of common stock outstanding.',
].join('\n');
const TOC = [
  'Table of Contents',
  'PART I',
  'Item 1.   Business   3',
  'Item 1A.   Risk Factors   7',
  'Item 2.   Properties   12',
  'Item 3.   Legal Proceedings   13',
].join('\n');
const BODY = [
  'PART I',
  'Item 1. Business',
  'Zenharrow designs and sells industrial filtration systems to water utilities and chemical plants in North America.',
].join('\n');

describe('coverSection and coverStatements', () => {
  const pages = [COVER, TOC, BODY];
  const cover = coverSection('10-K', pages, segmentFiling('10-K', pages)[0]);

  it(`takes the page with the form header, up to the table of contents, without check-box questions or \
captions`, () => {
    expect(cover?.itemTag).toBe('10K-Item-Cover');
    const lines = cover!.lines.map((l) => l.text.trim());
    expect(lines).toContain('ZENHARROW HOLDINGS INC.');
    expect(lines.some((l) => /check mark|preceding 12 months|filer ☒/.test(l))).toBe(false);
    expect(lines.some((l) => l.startsWith('(Exact name'))).toBe(false);
    expect(lines.some((l) => /Business|Risk Factors/.test(l))).toBe(false);
    expect(new Set(cover!.lines.map((l) => l.page))).toEqual(new Set([0]));
  });

  it('reads each registered security as one statement with its columns, and the cover sentences as prose', () => {
    const texts = coverStatements(cover!, '10-K').map((s) => s.text);
    expect(texts).toContain(
      'Securities registered pursuant to Section 12(b) of the Act: 2.250% Senior Notes due 2029 | ZNH29 | ' +
        'New York Stock Exchange',
    );
    expect(texts).toContain(
      'Securities registered pursuant to Section 12(b) of the Act: Common Stock, par value $0.10 per share | ' +
        'ZNH | New York Stock Exchange',
    );
    expect(texts.some((t) => /Title of each class/.test(t))).toBe(false);
    expect(texts).toContain(
      'As of August 10, 2023, the registrant had 212,004,118 shares of common stock outstanding.',
    );
    expect(
      texts.some((t) => t.startsWith('The aggregate market value of the common stock held by non-affiliates')),
    ).toBe(true);
  });

  it('points each statement at its line in the page', () => {
    for (const s of coverStatements(cover!, '10-K')) {
      const at = pages[s.page]!.slice(s.offset);
      const first = s.text
        .replace(/^Securities registered pursuant to Section 12\(b\) of the Act: /, '')
        .split(' | ')[0]!
        .slice(0, 12);
      expect(at.startsWith(first), s.text).toBe(true);
    }
  });

  it('finds no cover without the form header, and tags a 10-Q cover as such', () => {
    expect(coverSection('10-K', [TOC, BODY], undefined)).toBeNull();
    const q = coverSection('10-Q', [COVER.replace('FORM 10-K', 'FORM 10-Q'), BODY], undefined);
    expect(q?.itemTag).toBe('10Q-Cover');
  });
});

describe('cover page item tags as filter values', () => {
  it('accepts the tags and their aliases', async () => {
    const { itemTagOf, ALL_ITEM_TAGS } = await import('../../src/schema/filter-fields');
    expect(ALL_ITEM_TAGS).toContain('10K-Item-Cover');
    expect(ALL_ITEM_TAGS).toContain('10Q-Cover');
    expect(itemTagOf('cover page')).toBe('10K-Item-Cover');
    expect(itemTagOf('10-Q cover page')).toBe('10Q-Cover');
    expect(itemTagOf('10q-cover')).toBe('10Q-Cover');
  });
});
