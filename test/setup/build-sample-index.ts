import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runBuild } from '../../index-builder/cli/cli';
import { manifestKey, pointerKey, storedKey } from '../../index-format/keys';
import type { FileList, Manifest } from '../../index-format/types';

export interface SampleIndex {
  domain: string;
  version: string;
  pointerKey: string;
  /** R2 objects, base64-encoded (provide() needs serializable values), with the file each holds. */
  objects: { key: string; file: string; content_id?: string; data: string }[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    sampleIndex: SampleIndex;
  }
}

export const SAMPLE_FILINGS_DIR = resolve('fixtures/sample-corpus/filings');
const ARTIFACTS_DIR = resolve('.test-artifacts');

export default async function setup(project: TestProject) {
  const { dir } = await runBuild(SAMPLE_FILINGS_DIR, ARTIFACTS_DIR);
  const manifestText = readFileSync(join(dir, 'manifest.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as Manifest;
  const refs = [
    ...(JSON.parse(readFileSync(join(dir, manifest.files.file), 'utf8')) as FileList).files,
    manifest.files,
  ];
  const objects: SampleIndex['objects'] = refs.map((r) => ({
    key: storedKey(manifest.domain, manifest.version, r),
    file: r.file,
    ...(r.content_id ? { content_id: r.content_id } : {}),
    data: readFileSync(join(dir, r.file)).toString('base64'),
  }));
  objects.push({
    key: manifestKey(manifest.domain, manifest.version),
    file: 'manifest.json',
    data: Buffer.from(manifestText).toString('base64'),
  });
  project.provide('sampleIndex', {
    domain: manifest.domain,
    version: manifest.version,
    pointerKey: pointerKey(manifest.domain),
    objects,
  });
}
