import type { ErrorCode } from '../errors';

/**
 * Examples for the OpenAPI document. They use the invented issuers of the project's sample corpus (QSEP, QVLT,
 * ZNHF) and are validated against their schemas by test/unit/openapi.test.ts, so they cannot drift from the
 * contract.
 */
const registry =
  '<source_registry>\n' +
  '<source id="QVLT-10K-FY2023-I8" type="sec_filing_item" date="2023-11-14" sec_fiscal_year="FY-2023" ' +
  'sec_fiscal_year_end="09-30" ' +
  'sec_form_type="10-K" sec_gics_sector="Information Technology" sec_gics_sub_industry="Semiconductors" ' +
  'sec_item_tag="10K-Item-8" sec_ticker="QVLT"/>\n' +
  '</source_registry>\n';

const evidenceXml =
  registry +
  '<entity_glossary>\n<entity><name>QVLT</name><description>Quillvale Microdevices (Information Technology / ' +
  'Semiconductors)</description></entity>\n</entity_glossary>\n' +
  '<evidence_chain relevance_score="8">\n' +
  "<entry confidence_score='Medium' sources='QVLT-10K-FY2023-I8'>\n" +
  '<observed_epistemic_statuses>\n- FACT [QVLT-10K-FY2023-I8]\n</observed_epistemic_statuses>\n' +
  '<consensus>Purchases of property and equipment: (412) million USD for the year ended 2023-09-30</consensus>\n' +
  '<additional_context>\n- Consolidated Statements of Cash Flows, page 10 ' +
  '[QVLT-10K-FY2023-I8]\n</additional_context>\n' +
  '</entry>\n</evidence_chain>\n';

const evidenceRendered =
  evidenceXml +
  '<source_key>\nQVLT-10K-FY2023-I8: date=2023-11-14, sec_fiscal_year=FY-2023, sec_fiscal_year_end=09-30, ' +
  'sec_form_type=10-K, ' +
  'sec_gics_sector=Information Technology, sec_gics_sub_industry=Semiconductors, sec_item_tag=10K-Item-8, ' +
  'sec_ticker=QVLT\n</source_key>\n';

const instructions =
  'Ground every claim only in the evidence above. Cite source ids exactly as shown. If the evidence does not ' +
  'support an answer, say so.';

const budget = (tokens: number, cap: number | null) => ({
  requested_max_tokens: cap,
  estimator: 'chars_div_4_v1' as const,
  estimated_tokens: tokens,
  available_evidence_count: 1,
  returned_evidence_count: 1,
  truncated: false,
});

export const OPENAPI_EXAMPLES = {
  requests: {
    basic: {
      summary: 'Only a query: basic mode, medium effort, default sections.',
      value: { query: 'Quillvale capital expenditure 2023' },
    },
    research: {
      summary: 'Filtered research with a token cap.',
      value: {
        query: 'What did Quillvale spend on property and equipment in fiscal 2023?',
        mode: 'research',
        effort: 'medium',
        metadata_filters: { sec_ticker: 'QVLT', sec_fiscal_year: ['FY-2023'], sec_form_type: { eq: '10-K' } },
        include: { evidence_format: 'xml', metadata_distribution: true },
        retrieval: { max_evidence: 5, max_evidence_tokens: 4000 },
      },
    },
    agentic: {
      summary: 'A comparative question in agentic_research with an agent_context hand-off.',
      value: {
        query: 'Compare Zenharrow Foods and Quarrystone Energy revenue in FY2023.',
        mode: 'agentic_research',
        effort: 'high',
        include: { evidence: false, evidence_instructions: false, agent_context: true },
      },
    },
  },
  responses: {
    basic: {
      summary: 'Rule 1: request_id, evidence, evidence_instructions, evidence_budget and summary.',
      value: {
        request_id: '5b0f3c9e-3f55-4c9b-9a8e-2d0c7f1e6a11',
        evidence: evidenceRendered,
        evidence_instructions: instructions,
        evidence_budget: budget(Math.ceil(evidenceRendered.length / 4), null),
        summary: { domain: 'sp500', mode: 'basic', effort: 'medium', evidence_count: 1 },
      },
    },
    research: {
      summary: 'Research with filters, xml evidence and a metadata distribution.',
      value: {
        request_id: '0c3e1a52-8d7b-4f0e-b1f4-6a2e9d3c4b21',
        metadata_distribution: {
          evidence_paths: 1,
          sec_ticker: { display_name: 'Ticker symbols', values: { QVLT: 100 } },
          sec_fiscal_year: { display_name: 'Fiscal years', values: { 'FY-2023': 100 } },
        },
        evidence: evidenceXml,
        evidence_instructions: instructions,
        evidence_budget: budget(Math.ceil(evidenceXml.length / 4), 4000),
        summary: {
          domain: 'sp500',
          mode: 'research',
          effort: 'medium',
          evidence_count: 1,
          submitted_metadata_filters: {
            sec_ticker: 'QVLT',
            sec_fiscal_year: ['FY-2023'],
            sec_form_type: { eq: '10-K' },
          },
          applied_metadata_filters: { sec_ticker: 'QVLT', sec_fiscal_year: ['FY-2023'], sec_form_type: '10-K' },
        },
      },
    },
    agentic: {
      summary: 'agentic_research: coverage and a retrieval plan; only agent_context of the evidence fields.',
      value: {
        request_id: '9a7d2f10-6c4e-4b8a-8f3d-1e5b7c9a0d32',
        agent_context: {
          text:
            `## How to use this evidence\n\n${instructions}\n\n## Coverage\n\nStatus: partial (1 of 2 ` +
            `requirements covered).\n\n## Evidence\n\n${evidenceRendered}`,
          content_type: 'text/markdown',
          source_fields: ['evidence_instructions', 'evidence', 'coverage'],
        },
        summary: {
          domain: 'sp500',
          mode: 'agentic_research',
          effort: 'high',
          evidence_count: 1,
          applied_metadata_filters: { sec_ticker: ['ZNHF', 'QSEP'], sec_fiscal_year: 'FY-2023' },
        },
        coverage: {
          status: 'partial',
          requirement_count: 2,
          covered_requirement_count: 1,
          requirements: [
            {
              id: 'r1',
              label: 'ZNHF revenue FY-2023',
              query: 'Zenharrow Foods revenue FY2023',
              status: 'covered',
              retrieved_evidence_count: 3,
              returned_evidence_count: 1,
            },
            {
              id: 'r2',
              label: 'QSEP revenue FY-2023',
              query: 'Quarrystone Energy revenue FY2023',
              status: 'missing',
              retrieved_evidence_count: 0,
              returned_evidence_count: 0,
            },
          ],
          limitations: ['missing_evidence'],
        },
        evidence_budget: { ...budget(Math.ceil(evidenceRendered.length / 4), null), available_evidence_count: 1 },
        retrieval_plan: {
          queries: [
            {
              query: 'Zenharrow Foods revenue FY2023',
              label: 'r1: ZNHF revenue FY-2023',
              applied_metadata_filters: { sec_ticker: 'ZNHF', sec_fiscal_year: 'FY-2023' },
            },
            {
              query: 'Quarrystone Energy revenue FY2023',
              label: 'r2: QSEP revenue FY-2023',
              applied_metadata_filters: { sec_ticker: 'QSEP', sec_fiscal_year: 'FY-2023' },
            },
          ],
        },
      },
    },
  },
  listing: {
    one_field: {
      summary: 'GET /metadata-filters?field=sec_form_type&include_values=true',
      value: {
        domain: 'sp500',
        schema_version: '2026-11-21.1',
        fields: [
          {
            name: 'sec_form_type',
            description: 'SEC form type: 10-K (annual report) or 10-Q (quarterly report).',
            value_type: 'form_type',
            operators: ['eq', 'neq', 'in'],
            has_values: true,
            max_values_per_condition: 100,
            max_value_length: 256,
            allowed_values: [
              { value: '10-K', display_value: 'Annual report (10-K)', aliases: ['10k', 'annual report'] },
              { value: '10-Q', display_value: 'Quarterly report (10-Q)', aliases: ['10q', 'quarterly report'] },
            ],
          },
        ],
      },
    },
  },
  errorDetail(code: ErrorCode): Record<string, unknown> {
    const request_id = '3d6f8a2b-1c4e-4f7a-9b0d-5e2c8a1f7b63';
    switch (code) {
      case 'VALIDATION_ERROR':
        return {
          code,
          errors: [{ path: 'include.evidence_fromat', message: 'unknown key(s): evidence_fromat' }],
          request_id,
        };
      case 'LEGACY_FILTERS_KEY':
        return { code, errors: [{ path: 'filters', message: 'use metadata_filters' }], request_id };
      case 'FILTER_EXPRESSION_UNSUPPORTED':
        return {
          code,
          errors: [{ path: 'metadata_filters.or', message: 'boolean expression roots are not supported' }],
          request_id,
        };
      case 'INVALID_FILTER':
        return {
          code,
          errors: [
            {
              path: 'metadata_filters.report_filing_date.gte',
              message: '"2023-02-30" is not a calendar date YYYY-MM-DD',
            },
          ],
          request_id,
        };
      case 'INDEX_UNAVAILABLE':
        return { code, reason: 'no_published_version', request_id };
      case 'UNKNOWN_DOMAIN':
        return { code, domain: 'nasdaq', known_domains: ['sp500'], request_id };
      default:
        return { code, request_id };
    }
  },
};
