import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildShardEdges, type GraphInput } from '../../index-builder/graph/evidence-graph';
import { graphPath } from '../../src/evidence/chains';
import { metricCode } from '../../index-format/metrics';
import { buildSample } from '../support/sample-build';

describe('buildShardEdges (unit)', () => {
  const revenue = metricCode('revenue');
  const capex = metricCode('capex');
  const base = { filing: 0 };
  const statements: GraphInput[] = [
    {
      ...base,
      kind: 'table_row',
      status: 'FACT',
      itemTag: '10K-Item-8',
      metrics: [revenue],
      text: 'Net sales: 812 for FY2024 | 760 for FY2023',
      fact: {
        label: 'Net sales',
        scale: 'millions',
        unit: 'USD',
        cells: [{ raw: '812', value: 812, period: 'FY2024', periodKey: 'FY2024' }],
      },
    },
    {
      ...base,
      kind: 'sentence',
      status: 'FACT',
      itemTag: '10K-Item-7',
      metrics: [revenue],
      text: 'Net sales were $812 million in fiscal 2024, up 7%.',
    },
    {
      ...base,
      kind: 'sentence',
      status: 'FACT',
      itemTag: '10K-Item-7',
      metrics: [revenue],
      text: 'Net sales in Europe were flat.',
    },
    {
      ...base,
      kind: 'sentence',
      status: 'PREDICTION',
      itemTag: '10K-Item-7',
      metrics: [revenue],
      text: 'We expect net sales to grow in fiscal 2025.',
    },
    {
      ...base,
      kind: 'sentence',
      status: 'PREDICTION',
      itemTag: '10K-Item-7',
      metrics: [capex],
      text: 'We expect capital expenditures of $40 million.',
    },
    {
      filing: 1,
      kind: 'table_row',
      status: 'FACT',
      itemTag: '10Q-PartI-Item-1',
      metrics: [revenue],
      text: 'Net sales: 210',
      fact: {
        label: 'Net sales',
        scale: 'millions',
        unit: 'USD',
        cells: [{ raw: '210', value: 210, period: null, periodKey: null }],
      },
    },
  ];
  const edges = buildShardEdges(statements);

  it('links a table fact to the MD&A sentence quoting its value, both ways', () => {
    expect(edges[0]!.filter((e) => e.kind === 'explains').map((e) => e.target)).toEqual([1]);
    expect(edges[1]!).toContainEqual({ target: 0, kind: 'explains' });
  });

  it('links facts and MD&A sentences to outlook statements on the same metric only', () => {
    expect(edges[0]!.filter((e) => e.kind === 'outlook').map((e) => e.target)).toEqual([3]);
    expect(edges[1]!.filter((e) => e.kind === 'outlook').map((e) => e.target)).toEqual([3]);
  });

  it('links the same row across filings of the shard', () => {
    expect(edges[0]!).toContainEqual({ target: 5, kind: 'period' });
  });
});

describe('evidence graph on the sample corpus', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());

  it('follows table fact -> MD&A sentence -> outlook for QVLT FY2023 net sales', () => {
    const { shard } = sample.shard('QVLT-FY2023');
    const row = shard.texts.findIndex((t) => t.startsWith('Net sales:') && t.includes('4,837'));
    const path = graphPath(shard, row, 3).map((l) => shard.texts[l]!);
    expect(path[0]).toContain('4,837');
    expect(path[1]).toMatch(/Net sales were \$4,837 million/);
    expect(path[2]).toMatch(/expect net sales for the first quarter of fiscal 2024/);
  });

  it('counts edges by kind in the build summary', () => {
    const e = sample.result.summary.edges;
    expect(e.explains).toBeGreaterThan(0);
    expect(e.outlook).toBeGreaterThan(0);
  });
});
