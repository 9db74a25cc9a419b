import type { z } from 'zod';
import type { AgentContext, Coverage } from '../schema/response';

type CoverageValue = z.infer<typeof Coverage>;
type AgentContextValue = z.infer<typeof AgentContext>;

export interface AgentContextInput {
  instructions: string;
  /** The `evidence` string in the selected format, or null when no chain was returned. */
  evidence: string | null;
  /** Why there is no evidence (shown instead of it). */
  noEvidenceReason: string;
  /** agentic_research only. */
  coverage?: CoverageValue;
  /** Warning messages worth handing on (also in `notices`). */
  warnings: readonly string[];
}

const STATUS_MEANING: Record<CoverageValue['status'], string> = {
  complete: 'every planned requirement has at least one returned evidence chain.',
  partial:
    'some requirements have no returned evidence chain; answer only what the evidence covers and name what is missing.',
  none: 'no planned requirement has returned evidence; do not answer from memory.',
  not_assessed:
    'the question was not decomposed into requirements and retrieval used the original question, so ' +
    'completeness was not checked.',
};

/** Coverage as markdown: status and meaning, counts, each requirement, omitted requirements, limitations. */
export function renderCoverageMarkdown(c: CoverageValue): string {
  const lines = [
    `Status: **${c.status}**: ${STATUS_MEANING[c.status]}`,
    `Requirements covered: ${c.covered_requirement_count} of ${c.requirement_count}.`,
  ];
  if (c.requirements?.length) {
    lines.push('', 'Requirements:');
    for (const r of c.requirements) {
      lines.push(
        `- ${r.id} (${r.label}): ${r.status}; ${r.returned_evidence_count} chain(s) returned of ` +
          `${r.retrieved_evidence_count} retrieved. Query: ${r.query}`,
      );
    }
  }
  if (c.omitted_requirements?.length)
    lines.push('', `Not planned (beyond the requirement limit): ${c.omitted_requirements.join('; ')}.`);
  if (c.limitations?.length) lines.push('', `Limitations: ${c.limitations.join(', ')}.`);
  lines.push(
    '',
    'Coverage says whether evidence was delivered for each requirement; it does not check that the evidence ' +
      'is correct or sufficient.',
  );
  return lines.join('\n');
}

/**
 * `agent_context` (spec 2.5): one markdown hand-off for another model: the evidence-use instructions, the
 * coverage assessment (agentic_research), retrieval warnings, then the evidence exactly as the `evidence` field
 * carries it (same format, same bytes). The instructions are always included, whatever `include` says for the
 * top-level fields: the block is meant to be self-sufficient. `source_fields` names the response fields whose
 * content is in `text`.
 */
export function renderAgentContext(input: AgentContextInput): AgentContextValue {
  const parts = ['# Filing evidence', `## How to use this evidence\n\n${input.instructions}`];
  const fields = ['evidence_instructions'];
  if (input.coverage) {
    parts.push(`## Coverage assessment\n\n${renderCoverageMarkdown(input.coverage)}`);
    fields.push('coverage');
  }
  if (input.warnings.length) {
    parts.push(`## Retrieval notes\n\n${input.warnings.map((w) => `- ${w}`).join('\n')}`);
    fields.push('notices');
  }
  if (input.evidence) {
    parts.push(`## Evidence\n\n${input.evidence}`);
    fields.push('evidence');
  } else parts.push(`## Evidence\n\n${input.noEvidenceReason}`);
  return { text: parts.join('\n\n'), content_type: 'text/markdown', source_fields: fields };
}
