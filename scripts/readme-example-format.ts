/**
 * The README's example call and how its response is printed there. Pure (no node:*), so the Node script that
 * writes the README (scripts/readme-example.ts) and the workerd test that sends the same call through the Worker
 * (test/worker/readme-example.test.ts) format the response the same way.
 */

/** The body of the README's curl call. */
export const README_EXAMPLE_REQUEST = {
  query: 'What did Quillvale spend on property, plant and equipment in fiscal 2023?',
  mode: 'research',
  retrieval: { max_evidence: 1 },
} as const;

/** Printed in place of the request id, which differs per call. */
export const REQUEST_ID_PLACEHOLDER = '<differs per call>';

export const START_MARKER = '<!-- readme-example:start (written by scripts/readme-example.ts; do not edit) -->';
export const END_MARKER = '<!-- readme-example:end -->';

/**
 * The response as the README prints it: `request_id` masked, `evidence_instructions` cut to its first line (the
 * rest is fixed text, src/render/instructions.ts), indented by 4 as `python3 -m json.tool` prints it.
 */
export function formatExample(body: Record<string, unknown>): string {
  const shown: Record<string, unknown> = { ...body, request_id: REQUEST_ID_PLACEHOLDER };
  if (typeof shown.evidence_instructions === 'string') {
    const lines = shown.evidence_instructions.split('\n');
    shown.evidence_instructions = `${lines[0]} ... (${lines.length} lines in all)`;
  }
  return ['```json', JSON.stringify(shown, null, 4), '```'].join('\n');
}

/** The text between the markers, or null when the README has none. */
export function readmeExampleBlock(readme: string): string | null {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start < 0 || end < start) return null;
  return readme.slice(start + START_MARKER.length, end).trim();
}

/** The README with the text between the markers replaced by the block. */
export function withExampleBlock(readme: string, block: string): string {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START_MARKER} ... ${END_MARKER} markers`);
  return `${readme.slice(0, start + START_MARKER.length)}\n${block}\n${readme.slice(end)}`;
}
