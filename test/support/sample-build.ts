import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildResult } from '../../index-builder/build';
import { buildIndex } from '../../index-builder/pipeline';
import { readCorpus } from '../../index-builder/segment/read-corpus';
import { decodeDirectory, decodeShard } from '../../index-format/codec';
import { withGlobalSources } from '../../index-format/views';
import type { CatalogHeader, Shard } from '../../index-format/types';
import { readFullCatalog } from './file-index';

/** The sample corpus built by the real builder into a temporary folder, with decoders for its artifacts. */
export async function buildSample(): Promise<{
  result: BuildResult;
  catalog: CatalogHeader;
  shard(id: string): { index: number; shard: Shard };
  dispose(): void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'fers-sample-'));
  const result = await buildIndex(await readCorpus('fixtures/sample-corpus/filings'), { outDir: dir });
  const catalog = readFullCatalog(result.dir);
  const directory = decodeDirectory(new Uint8Array(readFileSync(join(result.dir, result.manifest.directory.file))));
  return {
    result,
    catalog,
    shard(id: string) {
      const index = catalog.shards.findIndex((s) => s.id === id);
      if (index < 0) throw new Error(`no shard ${id}`);
      // As the Worker reads it: sources renumbered from the issuer's to the corpus's (index-format/views.ts).
      const owner = directory.companies.find(
        (c) => index >= c.shards.first && index < c.shards.first + c.shards.fiscal_years.length,
      )!;
      return {
        index,
        shard: withGlobalSources(
          decodeShard(new Uint8Array(readFileSync(join(result.dir, catalog.shards[index]!.file)))),
          owner,
        ),
      };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
