import fc from 'fast-check';

/** Any `include` object the contract accepts: every flag optional, each with either value. */
export const includeArb = fc.record(
  {
    evidence: fc.boolean(),
    evidence_instructions: fc.boolean(),
    agent_context: fc.boolean(),
    evidence_format: fc.constantFrom('rendered', 'xml'),
    metadata_distribution: fc.boolean(),
    metadata_dashboard: fc.boolean(),
    summary: fc.boolean(),
  },
  { requiredKeys: [] },
);

export const modeArb = fc.constantFrom('basic', 'research', 'agentic_research');
export const effortArb = fc.constantFrom('low', 'medium', 'high');
