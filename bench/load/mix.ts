/**
 * The fixed request mix of the load test, written for the invented sample corpus (fixtures/sample-corpus): 6 basic,
 * 5 research and 3 agentic_research queries across efforts, caps and formats. Every request is valid, so every answer
 * must be a 2xx. A cycle through the list is one "mix"; autocannon's connections each walk it in order.
 */
export interface MixEntry {
  name: string;
  mode: 'basic' | 'research' | 'agentic_research';
  body: Record<string, unknown>;
}

export const SAMPLE_MIX: MixEntry[] = [
  { name: 'capex line', mode: 'basic', body: { query: 'purchases of property, plant and equipment' } },
  { name: 'margins', mode: 'basic', body: { query: 'net sales gross margin', effort: 'low' } },
  { name: 'supply risk', mode: 'basic', body: { query: 'risk factors supply chain disruption', effort: 'high' } },
  {
    name: 'lawsuits',
    mode: 'basic',
    body: { query: 'patent infringement lawsuit damages', retrieval: { max_evidence_tokens: 1500 } },
  },
  {
    name: 'outlook',
    mode: 'basic',
    body: { query: 'we anticipate capital expenditures in fiscal 2024', include: { evidence_format: 'xml' } },
  },
  {
    name: 'rate case',
    mode: 'basic',
    body: { query: 'base rate case public service commission', retrieval: { max_evidence: 3 } },
  },
  {
    name: 'inferred company+year',
    mode: 'research',
    body: { query: 'Quillvale capital expenditures fiscal 2023', mode: 'research' },
  },
  {
    name: 'caller filters',
    mode: 'research',
    body: {
      query: 'cost of sales as revised',
      mode: 'research',
      metadata_filters: { sec_ticker: 'ZNHF', sec_fiscal_year: ['FY-2022', 'FY-2023'] },
    },
  },
  {
    name: 'form + item',
    mode: 'research',
    body: {
      query: 'operating revenues',
      mode: 'research',
      effort: 'high',
      metadata_filters: { sec_ticker: 'QSEP', sec_form_type: '10-K' },
    },
  },
  {
    name: 'quarterly',
    mode: 'research',
    body: { query: 'Zenharrow Foods impairment in the 10-Q', mode: 'research', include: { agent_context: true } },
  },
  {
    name: 'capped research',
    mode: 'research',
    body: {
      query: 'segment net sales compute connectivity analog power',
      mode: 'research',
      retrieval: { max_evidence_tokens: 4000 },
    },
  },
  {
    name: 'two periods',
    mode: 'agentic_research',
    body: { query: 'How did Quillvale net sales in FY2023 compare with FY2022?', mode: 'agentic_research' },
  },
  {
    name: 'two issuers',
    mode: 'agentic_research',
    body: {
      query: 'Compare capital expenditures of Zenharrow Foods and Quarrystone Energy in 2023',
      mode: 'agentic_research',
      effort: 'high',
    },
  },
  {
    name: 'ratio',
    mode: 'agentic_research',
    body: {
      query: 'Quillvale gross margin FY2023',
      mode: 'agentic_research',
      effort: 'low',
      include: { agent_context: true },
    },
  },
];

/**
 * A mix for the shared corpus of real filings (FILINGS_DIR=../shared/corpus/filings): the same shape (6 basic,
 * 5 research, 3 agentic_research), spread over many issuers and years so the requests need far more shards than the
 * artifact cache's budget holds. Written here as questions a caller would ask; no filing text is copied.
 */
export const CORPUS_MIX: MixEntry[] = [
  { name: 'capex', mode: 'basic', body: { query: 'purchases of property and equipment capital expenditures' } },
  {
    name: 'buybacks',
    mode: 'basic',
    body: { query: 'share repurchase program remaining authorization', effort: 'low' },
  },
  { name: 'cyber risk', mode: 'basic', body: { query: 'cybersecurity incidents risk factors', effort: 'high' } },
  {
    name: 'goodwill',
    mode: 'basic',
    body: { query: 'goodwill impairment test reporting unit', retrieval: { max_evidence_tokens: 1500 } },
  },
  {
    name: 'leases',
    mode: 'basic',
    body: { query: 'operating lease liabilities maturity', include: { evidence_format: 'xml' } },
  },
  {
    name: 'revenue recognition',
    mode: 'basic',
    body: { query: 'revenue recognition performance obligations', retrieval: { max_evidence: 3 } },
  },
  { name: 'cloud', mode: 'research', body: { query: 'Microsoft cloud revenue fiscal 2022', mode: 'research' } },
  {
    name: 'aws',
    mode: 'research',
    body: { query: 'Amazon AWS operating income 2021', mode: 'research', effort: 'high' },
  },
  {
    name: 'iphone',
    mode: 'research',
    body: {
      query: 'iPhone net sales',
      mode: 'research',
      metadata_filters: { sec_ticker: 'AAPL', sec_fiscal_year: 'FY-2022' },
    },
  },
  {
    name: 'inventory',
    mode: 'research',
    body: { query: 'Nike inventories', mode: 'research', include: { agent_context: true } },
  },
  {
    name: 'backlog',
    mode: 'research',
    body: {
      query: 'backlog',
      mode: 'research',
      metadata_filters: { sec_ticker: ['LMT', 'PFE', 'NFLX'] },
      retrieval: { max_evidence_tokens: 4000 },
    },
  },
  {
    name: 'two issuers',
    mode: 'agentic_research',
    body: { query: 'Compare Microsoft and Oracle cloud revenue growth in fiscal 2022', mode: 'agentic_research' },
  },
  {
    name: 'two periods',
    mode: 'agentic_research',
    body: {
      query: 'How did Best Buy comparable sales change between 2021 and 2022?',
      mode: 'agentic_research',
      effort: 'high',
    },
  },
  {
    name: 'ratio',
    mode: 'agentic_research',
    body: { query: 'General Mills gross margin 2022', mode: 'agentic_research', effort: 'low' },
  },
];
