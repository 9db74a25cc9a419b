import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { functionSpans, typeScriptFiles } from '../support/source-code';

/**
 * The team's limit: no function in src/, index-format/ or index-builder/ longer than this many lines (signature to
 * closing brace).
 */
const MAX_FUNCTION_LINES = 120;

const FILES = [...typeScriptFiles('src'), ...typeScriptFiles('index-format'), ...typeScriptFiles('index-builder')];

describe('function length', () => {
  const spans = FILES.flatMap((file) =>
    functionSpans(readFileSync(file, 'utf8')).map((s) => ({ ...s, file, key: `${file} ${s.name}` })),
  );

  it(`no function in src/, index-format/ or index-builder/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const long = spans
      .filter((s) => s.lines > MAX_FUNCTION_LINES)
      .map((s) => `${s.file}:${s.line} ${s.name}: ${s.lines} lines`);
    expect(long).toEqual([]);
  });

  it('reads every module and finds its functions', () => {
    expect(FILES.length).toBeGreaterThan(50);
    expect(spans.some((s) => s.key === 'index-builder/pipeline.ts assembleIndex')).toBe(true);
    expect(spans.some((s) => s.key === 'src/adapters/r2-index.ts openR2Index')).toBe(true);
  });

  it('measures declarations, methods, arrows and nested functions from signature to closing brace', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const code = [
      `export function outer(a: number): number {`, // line 1
      body(3),
      `  const inner = (b: number) => {`, // line 5
      body(2),
      `    return b;`,
      `  };`, // line 9
      `  return inner(a);`,
      `}`, // line 11
      `class Shelf {`,
      `  private count = 0;`,
      `  add(): void {`, // line 14
      `    this.count++;`,
      `  }`,
      `  readonly take = function (this: Shelf) { return this.count; };`, // line 17
      `}`,
      `const list = [1].map((x) => x);`, // line 19
    ].join('\n');
    expect(functionSpans(code)).toEqual([
      { name: 'outer', line: 1, lines: 11 },
      { name: 'inner', line: 5, lines: 5 },
      { name: 'Shelf.add', line: 14, lines: 3 },
      { name: 'Shelf.take', line: 17, lines: 1 },
      { name: '(module) > (arrow at line 19)', line: 19, lines: 1 },
    ]);
  });
});
