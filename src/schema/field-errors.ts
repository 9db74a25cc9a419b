import type { z } from 'zod';
import type { FieldError } from '../errors';

/**
 * A failed zod parse of a request as the contract's field errors: a path ("include.evidence", "requirements[0]",
 * "(root)" for the body itself) and a message. POST /query and the MCP tools report validation alike.
 */
export function zodIssuesToErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
      .join('.')
      .replace(/\.\[/g, '[');
    if (issue.code === 'unrecognized_keys') {
      return { path: path || '(root)', message: `unknown key(s): ${issue.keys.join(', ')}` };
    }
    return { path: path || '(root)', message: issue.message };
  });
}
