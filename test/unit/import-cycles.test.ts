import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, moduleImports, partGraph, runtimeImports } from '../support/source-code';

/**
 * The Worker (src/) and the index builder (index-builder/) share what both read and write, the artifact format, its
 * codecs and the analyzer, through index-format/, which imports neither: a change to the Worker cannot reach into
 * the builder's output, or the other way round, except through that folder. Type imports count: a type names the
 * module it comes from as much as a value does.
 */
describe('imports between the Worker, the builder and index-format', () => {
  const edges = partGraph(['src', 'index-format', 'index-builder']);

  it('index-format imports neither the Worker nor the builder, type imports included', () => {
    expect(edges.filter((e) => e.from === 'index-format')).toEqual([]);
  });

  it('the Worker and the builder do not import each other', () => {
    const between = edges.filter((e) => e.from !== 'index-format' && e.to !== 'index-format');
    expect(between).toEqual([]);
  });

  it('finds the imports of both into index-format (the check is not vacuous)', () => {
    expect(edges.map((e) => `${e.from} -> ${e.to}`).sort()).toEqual([
      'index-builder -> index-format',
      'src -> index-format',
    ]);
  });
});

/**
 * The folders of src/ import each other one way: an import cycle between two folders means neither can be read,
 * tested or moved without the other. Type imports count: `import type` is erased at build time, but the reader still
 * needs the other folder. A file directly in src/ (index.ts, router.ts, errors.ts, ...) is a node of its own.
 */
describe('imports between src/ folders, type imports included', () => {
  const edges = folderGraph('src', { types: true });

  it('form no cycle', () => {
    const report = cycles(edges).map((component) => ({
      folders: component,
      imports: edges.filter((e) => component.includes(e.from) && component.includes(e.to)).flatMap((e) => e.imports),
    }));
    expect(report).toEqual([]);
  });

  it('finds the folder graph (the check is not vacuous)', () => {
    expect(edges.some((e) => e.from === 'routes' && e.to === 'schema')).toBe(true);
    expect(edges.some((e) => e.from === 'core' && e.to === 'search')).toBe(true);
    // Type-only: render reads the plan's shape, never runs it.
    expect(edges.some((e) => e.from === 'render' && e.to === 'plan')).toBe(true);
    expect(folderGraph('src').some((e) => e.from === 'render' && e.to === 'plan')).toBe(false);
  });

  it('counts value imports, re-exports and import() but not type-only imports', () => {
    const code = [
      `import { a } from './a';`,
      `import type { B } from './b';`,
      `import { type C, type D } from './c';`,
      `import { type E, f } from './e';`,
      `import './side-effect';`,
      `export { g } from './g';`,
      `export type { H } from './h';`,
      `export * from './all';`,
      `const lazy = () => import('./lazy');`,
      `type T = typeof import('./type-query');`,
    ].join('\n');
    expect(runtimeImports(code).map((i) => i.specifier)).toEqual([
      './a',
      './e',
      './side-effect',
      './g',
      './all',
      './lazy',
    ]);
    expect(moduleImports(code, { types: true }).map((i) => i.specifier)).toEqual([
      './a',
      './b',
      './c',
      './e',
      './side-effect',
      './g',
      './h',
      './all',
      './lazy',
      './type-query',
    ]);
  });

  it('reports every folder of a cycle, and only those', () => {
    const edges = [
      { from: 'filters', to: 'schema' },
      { from: 'schema', to: 'filters' },
      { from: 'routes', to: 'schema' },
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
    ];
    expect(cycles(edges)).toEqual([
      ['a', 'b', 'c'],
      ['filters', 'schema'],
    ]);
  });
});
