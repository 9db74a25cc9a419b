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
  { name: 'lawsuits', mode: 'basic', body: { query: 'patent infringement lawsuit damages', retrieval: { max_evidence_tokens: 1500 } } },
  { name: 'outlook', mode: 'basic', body: { query: 'we anticipate capital expenditures in fiscal 2024', include: { evidence_format: 'xml' } } },
  { name: 'rate case', mode: 'basic', body: { query: 'base rate case public service commission', retrieval: { max_evidence: 3 } } },
  { name: 'inferred company+year', mode: 'research', body: { query: 'Quillvale capital expenditures fiscal 2023', mode: 'research' } },
  {
    name: 'caller filters',
    mode: 'research',
    body: { query: 'cost of sales as revised', mode: 'research', metadata_filters: { sec_ticker: 'ZNHF', sec_fiscal_year: ['FY-2022', 'FY-2023'] } },
  },
  {
    name: 'form + item',
    mode: 'research',
    body: { query: 'operating revenues', mode: 'research', effort: 'high', metadata_filters: { sec_ticker: 'QSEP', sec_form_type: '10-K' } },
  },
  { name: 'quarterly', mode: 'research', body: { query: 'Zenharrow Foods impairment in the 10-Q', mode: 'research', include: { agent_context: true } } },
  { name: 'capped research', mode: 'research', body: { query: 'segment net sales compute connectivity analog power', mode: 'research', retrieval: { max_evidence_tokens: 4000 } } },
  { name: 'two periods', mode: 'agentic_research', body: { query: 'How did Quillvale net sales in FY2023 compare with FY2022?', mode: 'agentic_research' } },
  {
    name: 'two issuers',
    mode: 'agentic_research',
    body: { query: 'Compare capital expenditures of Zenharrow Foods and Quarrystone Energy in 2023', mode: 'agentic_research', effort: 'high' },
  },
  { name: 'ratio', mode: 'agentic_research', body: { query: 'Quillvale gross margin FY2023', mode: 'agentic_research', effort: 'low', include: { agent_context: true } } },
];
