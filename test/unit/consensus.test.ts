import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsensus, normalizeLabel, type ConsensusInput } from '../../index-builder/statements/consensus';
import { segmentNames } from '../../index-builder/entities/segments';
import { TableState, parseRow } from '../../index-builder/statements/table-facts';
import { buildSample } from '../support/sample-build';

function row(line: string, header: string, filing: number, source: number): ConsensusInput {
  const t = new TableState('10-K');
  t.read('(In millions)');
  t.read(header);
  const fact = t.toFact(parseRow(line)!);
  return { text: line, kind: 'table_row', status: 'FACT', source, page: 1, filing, ticker: 'XMPL', fact };
}

describe('buildConsensus (unit)', () => {
  it('merges a value restated in a later 10-K and keeps a different value as a disagreement', () => {
    const statements = [
      row('Cost of goods sold   500   480', '   2024   2023', 0, 10),
      row('Cost of goods sold   530   501   480', '   2025   2024   2023', 1, 20), // 2024 revised: 501 vs 500
      row('Cost of goods sold   530   500', '   2025   2024', 2, 30), // another copy agreeing with filing 0 for 2024
    ];
    const c = buildConsensus(statements);
    expect(c.disagree.get(0)!.map((o) => o.source)).toEqual([20]);
    expect(c.disagree.get(0)![0]!.note).toContain('501 there vs 500 here');
    expect(c.agree.get(0)!.map((o) => o.source)).toEqual([30]);
    expect(c.agree.get(2)!.map((o) => o.source)).toEqual([10]);
  });

  it('names each agreeing period once, however many columns print it (a pension table by plan)', () => {
    const c = buildConsensus([
      row('Transfers between plans   3   4   3   4', '   2024   2023   2024   2023', 0, 10),
      row('Transfers between plans   7   3   7   3', '   2025   2024   2025   2024', 1, 20),
    ]);
    expect(c.agree.get(1)!.map((o) => o.note)).toEqual(['same value for FY2024']);
  });

  it('merges identical sentences of two filings of one issuer, not of two issuers', () => {
    const s = (text: string, filing: number, ticker: string): ConsensusInput => ({
      text,
      kind: 'sentence',
      status: 'RISK',
      source: filing,
      page: 3,
      filing,
      ticker,
    });
    const text = 'A prolonged outage at our only wafer test facility could adversely affect our results.';
    const c = buildConsensus([s(text, 0, 'XMPL'), s(text.toUpperCase(), 1, 'XMPL'), s(text, 2, 'OTHR')]);
    expect(c.agree.get(0)!.map((o) => o.source)).toEqual([1]);
    expect(c.agree.has(2)).toBe(false);
  });

  it('ignores labels too generic to match across filings', () => {
    expect(normalizeLabel('Other — net (1)')).toBe('other net');
    const c = buildConsensus([
      row('Other — net   5   4', '   2024   2023', 0, 1),
      row('Other — net   9   5', '   2025   2024', 1, 2),
    ]);
    expect(c.disagree.size + c.agree.size).toBe(0);
  });
});

describe('consensus on the sample corpus', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());

  it('keeps ZNHF FY2022 cost of sales as revised (2,995) apart from as originally reported (2,944)', () => {
    const { shard } = sample.shard('ZNHF-FY2023');
    const i = shard.texts.findIndex((t) => t.startsWith('Cost of sales:') && t.includes('3,061'));
    const ids = (list: { source: number }[]) => list.map((o) => sample.catalog.sources[o.source]!.id);
    expect(ids(shard.disagree[i]!)).toContain('ZNHF-10K-FY2022-I8');
    expect(shard.disagree[i]!.find((o) => sample.catalog.sources[o.source]!.id === 'ZNHF-10K-FY2022-I8')!.note).toMatch(
      /2,944 there vs 2,995 here/,
    );
  });

  it('merges an unchanged figure across the two 10-Ks (ZNHF operating income 415)', () => {
    const { shard } = sample.shard('ZNHF-FY2023');
    const i = shard.texts.findIndex((t) => t.startsWith('Operating income:') && t.includes('415'));
    expect(shard.agree[i]!.map((o) => sample.catalog.sources[o.source]!.id)).toContain('ZNHF-10K-FY2022-I8');
    expect(shard.disagree[i]).toEqual([]);
  });

  it('merges the QSEP figures of the EDGAR HTML FY2021 10-K with the FY2022 10-K', () => {
    const { shard } = sample.shard('QSEP-FY2021');
    const i = shard.texts.findIndex(
      (t) => t.startsWith('Purchases of property, plant and equipment') && t.includes('(905)'),
    );
    expect(shard.agree[i]!.map((o) => sample.catalog.sources[o.source]!.id)).toContain('QSEP-10K-FY2022-I8');
  });

  it('reports merged entries in the build summary', () => {
    expect(sample.result.summary.mergedTableRows).toBeGreaterThan(0);
    expect(sample.result.summary.disagreeingRows).toBeGreaterThan(0);
  });
});

describe('entities: business segments', () => {
  it('reads an explicit segment list, and only an unambiguous one', () => {
    expect(
      segmentNames('We operate in three reportable segments: Alder Retail, Alder International and Birch Club.'),
    ).toEqual(['Alder Retail', 'Alder International', 'Birch Club']);
    expect(segmentNames('Our operating segments are Widgets, Gadgets, and Services.')).toEqual([
      'Widgets',
      'Gadgets',
      'Services',
    ]);
    expect(segmentNames('Sales in the Safety and Industrial business segments are Growing and Strong.')).toEqual([]);
    // The count settles a name with "and" in it.
    expect(segmentNames('We have two reportable segments: Cloud, Devices and Other.')).toEqual([
      'Cloud',
      'Devices and Other',
    ]);
  });
});

describe('segments in the sample catalog', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());
  it('describes QSEP by the segments of its latest 10-K', () => {
    expect(sample.catalog.companies.find((c) => c.ticker === 'QSEP')!.segments).toEqual([
      'Regulated Electric Utility',
      'Transmission',
      'Renewable Generation',
    ]);
  });
});
