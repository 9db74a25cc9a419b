/** The built index's whole catalog, read from the artifacts directory (the same bytes the Worker serves from R2). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeManifest } from '../../index-format/codec';
import type { CatalogHeader, CatalogSource, Manifest } from '../../index-format/types';
import { readFullCatalog } from '../../test/support/file-index';

export interface LoadedCatalog {
  manifest: Manifest;
  catalog: CatalogHeader;
  /** Source id (as rendered in the evidence) -> catalog source. */
  byId: Map<string, CatalogSource>;
}

export function loadCatalog(versionDir: string): LoadedCatalog {
  const manifest = decodeManifest(readFileSync(join(versionDir, 'manifest.json'), 'utf8'));
  const catalog = readFullCatalog(versionDir);
  return { manifest, catalog, byId: new Map(catalog.sources.map((s) => [s.id, s])) };
}
