/**
 * Entity extraction (index-builder/entities) and the shared name matcher (index-format/entities.ts), on invented
 * sentences about invented companies, with the traps the extractors must not fall into.
 */
import { describe, expect, it } from 'vitest';
import { baseName, EntityCollector, PRODUCT_MIN_MENTIONS } from '../../index-builder/entities/collect';
import { counterpartyCandidates } from '../../index-builder/entities/counterparties';
import { productCandidates } from '../../index-builder/entities/products';
import { namedSegmentCandidates, segmentNames, segmentRowKey } from '../../index-builder/entities/segments';
import { entityMatcher, segmentNeedsContext } from '../../index-format/entities';
import { mentionedEntities } from '../../src/evidence/glossary';
import type { Chain } from '../../src/evidence/model';
import type { CatalogHeader } from '../../index-format/types';
import { renderEvidence } from '../../src/render/evidence';

const names = (cs: { name: string }[]) => cs.map((c) => c.name);

describe('entityMatcher', () => {
  const m = entityMatcher(['Harrow Hearth', 'Apple', "Sam's Club", 'Gorilla', 'Zenny']);
  it('matches whole names, case-sensitively, with a possessive or a mark after them', () => {
    expect(m.mentioned('Sales of Harrow Hearth® soups rose; Zenny’s bars fell.')).toEqual([0, 4]);
    expect(m.mentioned("Sam's Club's membership income grew.")).toEqual([2]);
  });
  it('does not match inside longer words or in another case', () => {
    expect(m.mentioned("Applebee's and a gorilla; Harrow Hearthstone; Zennyco")).toEqual([]);
  });
});

describe('entityMatcher: one-word segment names', () => {
  it('needs "segment" nearby for a capitalised common word, not for several words or an acronym', () => {
    const ns = ['Consumer', 'Consumer Health', 'AWS'];
    const m = entityMatcher(
      ns,
      ns.map((n) => segmentNeedsContext('segment', n)),
    );
    expect(m.mentioned('Consumer demand weakened in the fourth quarter.')).toEqual([]); // trap: the ordinary word
    expect(m.mentioned('Sales in the Consumer segment rose 3%.')).toEqual([0]);
    expect(m.mentioned('Consumer Health sales rose 3%.')).toEqual([1]);
    expect(m.mentioned('AWS sales rose 3%.')).toEqual([2]);
    expect(segmentNeedsContext('product', 'Consumer')).toBe(false);
  });
});

describe('segments', () => {
  it('reads explicit lists, with or without a qualifier when a count is given', () => {
    expect(
      segmentNames('We operate in three reportable segments: Grid Services, Storage Systems and Field Software.'),
    ).toEqual(['Grid Services', 'Storage Systems', 'Field Software']);
    expect(segmentNames('The Company is organized into two segments: Brewing and Distilling.')).toEqual([
      'Brewing',
      'Distilling',
    ]);
  });
  it('reads "segments consist of" with the list\'s "and" inside the last item when there is no count', () => {
    expect(
      segmentNames(
        'The Company’s reportable segments consist of the Northlands, Ostmark, Greater Vell and Rest of Tarn.',
      ),
    ).toEqual(['Northlands', 'Ostmark', 'Greater Vell', 'Rest of Tarn']);
    // Trap: with an Oxford comma the last item is one name.
    expect(segmentNames('Our reportable segments consist of Brewing, Distilling, and Safety and Industrial.')).toEqual([
      'Brewing',
      'Distilling',
      'Safety and Industrial',
    ]);
    // Trap: two "and"s in the last item without a count cannot be split reliably.
    expect(
      segmentNames('Our reportable segments consist of Brewing, Malting, Storage and Tanks and Bottling.'),
    ).toEqual([]);
    expect(
      segmentNames(
        'We operate four reportable operating segments: Home Cards, Business Cards, Travel Cards and ' +
          'Merchant Services.',
      ),
    ).toEqual(['Home Cards', 'Business Cards', 'Travel Cards', 'Merchant Services']);
  });
  it('reads a table row label as a segment key, and whether the row itself says "segment"', () => {
    expect(segmentRowKey('Total Parcelway Ground segment')).toEqual({ key: 'Parcelway Ground', explicit: true });
    expect(segmentRowKey('Net sales: Rigid Tins (a)')).toEqual({ key: 'Rigid Tins', explicit: false });
  });
  it('ignores a segment mentioned in passing, a list of sub-units, and a count that does not match', () => {
    expect(segmentNames('Sales in the Safety and Industrial segment rose 4%.')).toEqual([]);
    expect(
      segmentNames(
        'Our Services Businesses is comprised of three operating segments: Alpha Group, Beta Group and Gamma Group.',
      ),
    ).toEqual([]);
    expect(
      segmentNames(
        'The four non-reportable operating segments are North Group, South Group, East Group and West Group.',
      ),
    ).toEqual([]);
    expect(segmentNames('We have three reportable segments: Grid Services and Storage Systems.')).toEqual([]);
  });
  it('names a segment candidate from "the X segment", never generic words', () => {
    expect(names(namedSegmentCandidates('Operating income in our Frozen Meals segment rose.'))).toEqual([
      'Frozen Meals',
    ]);
    expect(namedSegmentCandidates('Each reportable segment and the Corporate segment are reviewed.')).toEqual([]);
  });
});

describe('products', () => {
  it('takes registered names and proper-noun brand lists', () => {
    expect(names(productCandidates('Sales of Kettlewise® soups and Tallgrain™ bars grew.'))).toEqual([
      'Kettlewise',
      'Tallgrain',
    ]);
    expect(names(productCandidates('Our brands include Harrow Hearth, Zenny, Meadowline and Copperpot.'))).toEqual([
      'Harrow Hearth',
      'Zenny',
      'Meadowline',
      'Copperpot',
    ]);
  });
  it('does not take common-noun lists, items, or a truncated mark', () => {
    expect(productCandidates('Our products include soups, snack bars and frozen meals.')).toEqual([]);
    expect(productCandidates('See Item 7 and Item 1A for products such as Item 7, Part II and Note 4.')).toEqual([]);
    expect(names(productCandidates('Sales of Call of Duty® rose.'))).toEqual(['Call of Duty']); // not "Duty"
    // a figure-like word is no name
    expect(names(productCandidates('Microsoft® and the Q3® report'))).toEqual(['Microsoft']);
  });
  it('marks another owner’s trademarks so they are not the issuer’s products', () => {
    const cs = productCandidates(
      'Vexa, Vexa Pro and Orbline are trademarks of Orbital Widgets Inc. in the United States.',
    );
    expect(cs.filter((c) => c.role === 'trademark').map((c) => [c.name, c.detail])).toEqual([
      ['Vexa', 'trademark of Orbital Widgets Inc'],
      ['Vexa Pro', 'trademark of Orbital Widgets Inc'],
      ['Orbline', 'trademark of Orbital Widgets Inc'],
    ]);
    const two = productCandidates(
      'Vexa is a registered trademark of Orbital Widgets, Inc. Pelloq and Pelloq Mini are trademarks of Pell Ltd.',
    );
    expect(two.map((c) => c.name)).toEqual(['Vexa', 'Pelloq', 'Pelloq Mini']);
  });
});

describe('counterparties', () => {
  it('reads customers from a share of sales, "sales to", "largest customer" and a dashed list', () => {
    expect(
      counterpartyCandidates(
        'Marketbright Stores, Inc. and its affiliates accounted for approximately 18% of consolidated net ' +
          'sales; no other customer exceeded 10%.',
      ),
    ).toEqual([
      {
        kind: 'counterparty',
        name: 'Marketbright Stores, Inc.',
        role: 'customer',
        detail: 'accounted for 18% of consolidated net sales',
      },
    ]);
    expect(names(counterpartyCandidates('Sales to Pellmart Corp. represented 12% of net revenues in 2023.'))).toEqual([
      'Pellmart Corp.',
    ]);
    expect(names(counterpartyCandidates('Our largest customer, Brindle Foods, buys soups.'))).toEqual([
      'Brindle Foods',
    ]);
    expect(
      names(
        counterpartyCandidates('We had two customers—Orbital and Pellmart—who each accounted for 11% of net revenues.'),
      ),
    ).toEqual(['Orbital', 'Pellmart']);
  });
  it(`reads customers from an appositive, "X is our largest customer" and named shares of the largest \
customers`, () => {
    expect(
      counterpartyCandidates(
        'For 2021, sales to Vellmont Glass Co. Ltd., a customer of our Panels segment, represented 13% of ' +
          'consolidated net sales.',
      )[0],
    ).toMatchObject({
      name: 'Vellmont Glass Co. Ltd.',
      role: 'customer',
      detail: 'accounted for 13% of consolidated net sales',
    });
    expect(
      names(
        counterpartyCandidates(
          'For the year ended January 2, 2022 Brindle-Mart Stores Inc., our largest customer, represented ' +
            'approximately 19% of our net sales.',
        ),
      ),
    ).toEqual(['Brindle-Mart Stores Inc.']);
    expect(names(counterpartyCandidates('The Postal Agency is the largest customer of our Air segment.'))).toEqual([
      'Postal Agency',
    ]);
    expect(
      counterpartyCandidates(
        'In 2022, our three largest customers accounted for 38% of our net revenue, with Korvel Inc. ' +
          'accounting for 16% and Dastra Limited accounting for 11%.',
      ).map((c) => [c.name, c.detail]),
    ).toEqual([
      ['Korvel Inc.', 'accounted for 16% of net revenue'],
      ['Dastra Limited', 'accounted for 11% of net revenue'],
    ]);
    // Traps: examples in a list, and a share named without any statement about customers (a product line).
    expect(counterpartyCandidates('Retailers such as Brindle-Mart, our largest customer, carry our soups.')).toEqual(
      [],
    );
    expect(counterpartyCandidates('Net sales rose 9%, with Kettlewise accounting for 16% of the increase.')).toEqual(
      [],
    );
  });
  it(`reads suppliers from "is our sole supplier" and a share of purchases, not from a sole supplier left \
unnamed`, () => {
    expect(counterpartyCandidates('Tarnfield Foundry is our sole supplier of wafers.')[0]).toMatchObject({
      name: 'Tarnfield Foundry',
      role: 'supplier',
    });
    expect(
      counterpartyCandidates('Our stores purchased approximately 55% to 70% of their merchandise from Stridewell.')[0],
    ).toMatchObject({ name: 'Stridewell', role: 'supplier', detail: 'source of 55% to 70% of merchandise purchased' });
    expect(counterpartyCandidates('Some materials are available only from a sole supplier.')).toEqual([]);
    expect(counterpartyCandidates('Stridewell is our main competitor in running shoes.')).toEqual([]);
  });
  it('reads acquisitions, suppliers and agreement parties only with a company suffix or an explicit relation', () => {
    expect(
      counterpartyCandidates('In 2023 we completed the acquisition of Brightwater Sensing, Inc. for $210 million.')[0],
    ).toMatchObject({ name: 'Brightwater Sensing, Inc.', role: 'acquisition' });
    expect(counterpartyCandidates('The acquisition of Property and Equipment was funded with cash.')).toEqual([]);
    expect(counterpartyCandidates('We rely on Tarnfield Foundry for wafer fabrication.')[0]).toMatchObject({
      name: 'Tarnfield Foundry',
      role: 'supplier',
      detail: 'the company relies on it for wafer fabrication',
    });
    expect(
      counterpartyCandidates('We entered into a revolving credit agreement with Lakeshire Bank, N.A. in May.')[0],
    ).toMatchObject({ name: 'Lakeshire Bank, N.A.', detail: 'party to a revolving credit agreement with the company' });
  });
  it('does not read a competitor, a product line, a segment or a region as a customer', () => {
    expect(counterpartyCandidates('We compete with Tallbrook Kitchens, Inc. and other national brands.')).toEqual([]);
    expect(
      counterpartyCandidates(
        'Our principal competitor, Tallbrook Kitchens, accounted for approximately 22% of category sales.',
      ),
    ).toEqual([]);
    expect(
      counterpartyCandidates('Frozen Meals accounted for 24% of net sales, and our customers bought more soup.'),
    ).toEqual([]);
    expect(counterpartyCandidates('Harrow Hearth products accounted for 30% of net sales to our customers.')).toEqual(
      [],
    );
    expect(counterpartyCandidates('Non-U.S. customers, which includes Europe, accounted for 40% of revenues.')).toEqual(
      [],
    );
  });
});

describe('EntityCollector', () => {
  const ref = (filing: number, period: string) => ({
    id: `ZNX-10K-FY${period.slice(0, 4)}-I1`,
    filing,
    period,
    label: `FY${period.slice(0, 4)} 10-K`,
  });
  const co = [{ ticker: 'ZNX', company: 'Zenix Foods', aliases: ['zenix foods', 'zenix', 'znx'] }];

  it(`keeps supported entities with first and latest sources and leaves out the unsupported and the issuer \
itself`, () => {
    const c = new EntityCollector();
    c.observeSentence('ZNX', 'Our brands include Kettlewise, Tallgrain and Oatwhistle.', ref(0, '2022-12-31'));
    c.observeSentence('ZNX', 'Our brands include Kettlewise, Tallgrain and Oatwhistle.', ref(1, '2023-12-31'));
    c.observeSentence('ZNX', 'Sales to Pellmart Corp. represented 12% of net sales.', ref(1, '2023-12-31'));
    c.observeSentence(
      'ZNX',
      'We completed the acquisition of Zenix Foods Holdings from its founders.',
      ref(1, '2023-12-31'),
    );
    const texts = [
      'Kettlewise grew.',
      'Kettlewise soups.',
      'Tallgrain bars.',
      'Kettlewise and Tallgrain.',
      'Our brands include Kettlewise, Tallgrain and Oatwhistle.',
    ];
    const out = c.finish(co, () => texts).get('ZNX')!;
    expect(out.entities.map((e) => [e.kind, e.name, e.mentions])).toEqual([
      ['counterparty', 'Pellmart Corp.', 0],
      ['product', 'Kettlewise', 4],
      ['product', 'Tallgrain', 3],
    ]);
    expect(PRODUCT_MIN_MENTIONS).toBe(3); // Oatwhistle (1 mention) is below it
    const kettle = out.entities.find((e) => e.name === 'Kettlewise')!;
    expect([kettle.first, kettle.latest]).toEqual(['ZNX-10K-FY2022-I1', 'ZNX-10K-FY2023-I1']);
    expect(out.entities[0]!.description).toBe(
      'Customer of Zenix Foods (ZNX): accounted for 12% of net sales (FY2023 10-K).',
    );
  });

  it('merges name variants of one counterparty into one entity matchable by every spelling', () => {
    expect(baseName('Wal-Mart Stores, Inc.')).toBe(baseName('Walmart Inc.'));
    expect(baseName('Pellmart Corp.')).not.toBe(baseName('Pell Corp.'));
    const c = new EntityCollector();
    c.observeSentence(
      'ZNX',
      'Our largest customer, Brindle-Mart Stores, Inc., represented 20% of our net sales.',
      ref(0, '2022-12-31'),
    );
    c.observeSentence(
      'ZNX',
      'Our largest customer, Brindlemart Inc., represented 21% of our net sales.',
      ref(1, '2023-12-31'),
    );
    const out = c
      .finish(co, () => [
        'Brindlemart Inc. grew.',
        'Brindle-Mart Stores, Inc. grew.',
        'Brindlemart Inc. and Brindle-Mart Stores, Inc.',
      ])
      .get('ZNX')!;
    expect(out.entities.map((e) => [e.name, e.aliases, e.mentions])).toEqual([
      ['Brindlemart Inc.', ['Brindle-Mart Stores, Inc.'], 3],
    ]);
  });

  it('keeps a named segment with few sentences when the segment table labels its rows, not otherwise', () => {
    const c = new EntityCollector();
    for (const f of [0, 1]) {
      const r = ref(f, `${2022 + f}-12-31`);
      for (let i = 0; i < 3; i++) c.observeSentence('ZNX', `Sales in the Rigid Tins segment rose ${i + 1}%.`, r);
      for (let i = 0; i < 3; i++) c.observeSentence('ZNX', `Costs in the Kettle Works segment rose ${i + 1}%.`, r);
      c.observeTableRow('ZNX', 'Net sales: Rigid Tins', r);
    }
    c.observeSentence('ZNX', 'Sales in the Parcelway Ground segment rose 1%.', ref(1, '2023-12-31'));
    c.observeSentence('ZNX', 'Sales in the Parcelway Ground segment rose 2%.', ref(1, '2023-12-31'));
    c.observeSentence('ZNX', 'Sales in the Parcelway Ground segment rose 3%.', ref(1, '2023-12-31'));
    c.observeTableRow('ZNX', 'Parcelway Ground segment', ref(1, '2023-12-31'));
    const out = c.finish(co, () => []).get('ZNX')!;
    // Kettle Works (6 sentences, 2 filings) meets the old rule; Rigid Tins (rows in 2 filings) and Parcelway Ground
    // (a row labelled "segment") the table rule.
    expect(out.segments.sort()).toEqual(['Kettle Works', 'Parcelway Ground', 'Rigid Tins']);
    const c2 = new EntityCollector();
    for (let i = 0; i < 3; i++)
      c2.observeSentence('ZNX', `Sales in the Rigid Tins segment rose ${i + 1}%.`, ref(0, '2022-12-31'));
    c2.observeTableRow('ZNX', 'Net sales: Rigid Tins', ref(0, '2022-12-31'));
    expect(c2.finish(co, () => []).get('ZNX')).toBeUndefined(); // one filing, bare row label: not enough
  });

  it('prefers the latest explicit segment list and describes each segment', () => {
    const c = new EntityCollector();
    c.observeSentence('ZNX', 'We operate in two reportable segments: Soups and Snacks.', ref(0, '2022-12-31'));
    c.observeSentence(
      'ZNX',
      'We operate in three reportable segments: Soups, Snacks and Frozen.',
      ref(1, '2023-12-31'),
    );
    const out = c.finish(co, () => ['Soups grew.']).get('ZNX')!;
    expect(out.segments).toEqual(['Soups', 'Snacks', 'Frozen']);
    expect(out.entities[0]!.description).toBe(
      'Segment of Zenix Foods (ZNX): one of 3 business segments listed in FY2023 10-K; first FY2022 10-K.',
    );
  });
});

describe('glossary: entities the entries mention', () => {
  const catalog = {
    sources: ['ZNX', 'QQQ'].map((t) => ({
      id: `${t}-10K-FY2023-I7`,
      type: 'sec_filing_item',
      date: '2024-02-20',
      doc_id: `${t}_2023_10K`,
      company: t,
      period_of_report: '2023-12-31',
      fiscal_period: 'FY',
      item_title: 'MD&A',
      page_start: 1,
      page_end: 9,
      shard: 0,
      meta: {
        sec_ticker: t,
        sec_fiscal_year_end: '12-31',
        sec_fiscal_year: 'FY-2023',
        sec_form_type: '10-K',
        sec_item_tag: '10K-Item-7',
        sec_gics_sector: null,
        sec_gics_sub_industry: null,
        report_filing_date: '2024-02-20',
      },
    })),
    companies: [
      {
        ticker: 'ZNX',
        company: 'Zenix Foods',
        cik: null,
        sector: null,
        sub_industry: null,
        aliases: [],
        entities: [
          {
            name: 'Kettlewise',
            kind: 'product',
            description: 'Product or brand of Zenix Foods (ZNX).',
            first: 'a',
            latest: 'b',
            mentions: 4,
          },
          {
            name: 'Pellmart Corp.',
            kind: 'counterparty',
            description: 'Customer of Zenix Foods (ZNX).',
            first: 'a',
            latest: 'b',
            mentions: 2,
            aliases: ['Pell-Mart Stores Corp.'],
          },
          {
            name: 'Frozen',
            kind: 'segment',
            description: 'Segment of Zenix Foods (ZNX).',
            first: 'a',
            latest: 'b',
            mentions: 2,
          },
        ],
      },
      {
        ticker: 'QQQ',
        company: 'Quux',
        cik: null,
        sector: null,
        sub_industry: null,
        aliases: [],
        entities: [
          { name: 'Tallgrain', kind: 'product', description: 'Product of Quux.', first: 'a', latest: 'b', mentions: 3 },
        ],
      },
    ],
  } as unknown as CatalogHeader;
  const chain = (text: string, source: number): Chain => ({
    relevance: 5,
    score: 1,
    entries: [{ consensus: text, confidence: 'Low', sources: [{ source, status: 'FACT', page: 1, kind: 'sentence' }] }],
  });

  it('lists the issuer’s entities the entry text names, and none it does not', () => {
    const found = mentionedEntities(catalog, [chain('Kettlewise and Tallgrain sales grew.', 0)]);
    // Tallgrain is another issuer's
    expect([...found].map(([t, es]) => [t, es.map((e) => e.name)])).toEqual([['ZNX', ['Kettlewise']]]);
    const evidence = renderEvidence(catalog, [chain('Kettlewise and Tallgrain sales grew.', 0)], 'xml');
    expect(evidence).toContain(
      '<entity>\n<name>Kettlewise</name>\n<description>Product or brand of Zenix Foods (ZNX).</description>\n</entity>',
    );
    expect(evidence).not.toContain('Pellmart');
    expect(evidence).not.toContain('<name>Tallgrain</name>');
  });
  it('finds a counterparty by an alias, and a one-word segment only with "segment" nearby', () => {
    const byAlias = mentionedEntities(catalog, [chain('Pell-Mart Stores Corp. bought more soup.', 0)]);
    expect(byAlias.get('ZNX')!.map((e) => e.name)).toEqual(['Pellmart Corp.']);
    expect(mentionedEntities(catalog, [chain('Frozen inventories rose.', 0)]).get('ZNX')).toBeUndefined();
    expect(
      mentionedEntities(catalog, [chain('The Frozen segment grew.', 0)])
        .get('ZNX')!
        .map((e) => e.name),
    ).toEqual(['Frozen']);
  });
});
