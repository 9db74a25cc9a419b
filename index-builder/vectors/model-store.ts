import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import {
  ArtifactFormatError,
  decodeArtifact,
  encodeArtifact,
  requireSection,
  verifySeal,
} from '../../index-format/container';
import type { EmbeddingModel } from '../../index-format/types';
import type { LearnedModel } from './embeddings';
import { seal, sha256 } from '../shards/seal';

/**
 * The word-vector model as an artifact of its own, so that a build can reuse it instead of learning one: adding
 * filings then leaves every statement vector of the other filings unchanged (issue 13, incremental builds). Models
 * live beside the versions, `<ARTIFACTS_DIR>/sp500/models/<id>.bin`; the id is the first 16 hex digits of the
 * file's SHA-256, and a version's manifest names the model its vectors came from (`embedding_model`).
 * The Worker never reads a model: the vectors of the terms it needs are copied into the term blocks.
 */
export const MODELS_DIR = 'models';

interface ModelHeader {
  dim: number;
  vocab: string[];
}

/** A model as stored: the Worker's part (vocabulary, weights, vectors) and the common component taken out of it. */
export type StoredModel = Omit<EmbeddingModel, 'vocabIndex' | 'byteSize'> & { common?: Float32Array | null };

export function encodeModel(model: StoredModel): Uint8Array {
  const sections = {
    weights: model.weights,
    vectors: model.vectors,
    ...(model.common ? { common: model.common } : {}),
  };
  const bytes = encodeArtifact('model', { dim: model.dim, vocab: model.vocab } satisfies ModelHeader, sections);
  return seal(bytes);
}

/** A stored model; `common` is null for a model that removed none (those learned before it was introduced). */
export function decodeModel(bytes: Uint8Array): LearnedModel {
  const decoded = decodeArtifact<ModelHeader>(bytes, 'model');
  const h = decoded.header;
  if (!h || !Number.isInteger(h.dim) || h.dim < 1 || !Array.isArray(h.vocab))
    throw new ArtifactFormatError('model header incomplete');
  const weights = requireSection(decoded, 'weights', Float32Array, h.vocab.length);
  const vectors = requireSection(decoded, 'vectors', Int8Array, h.vocab.length * h.dim);
  const common = 'common' in decoded.sections ? requireSection(decoded, 'common', Float32Array, h.dim) : null;
  return {
    dim: h.dim,
    vocab: h.vocab,
    vocabIndex: new Map(h.vocab.map((w, i) => [w, i])),
    weights,
    vectors,
    byteSize: vectors.byteLength,
    common,
  };
}

export const modelId = (bytes: Uint8Array) => sha256(bytes).slice(0, 16);

/** Writes a model under its id (once: the same model is the same file) and returns the id. */
export function saveModel(domainDir: string, model: StoredModel): string {
  const bytes = encodeModel(model);
  const id = modelId(bytes);
  const file = join(domainDir, MODELS_DIR, `${id}.bin`);
  if (!existsSync(file)) {
    mkdirSync(join(domainDir, MODELS_DIR), { recursive: true });
    writeFileSync(`${file}.tmp`, bytes);
    renameSync(`${file}.tmp`, file);
  }
  return id;
}

/**
 * A model by id (looked up in `<domainDir>/models/`) or by path to its file. Verified by its seal; an unknown id or
 * a damaged file is an error that says where it looked.
 */
export async function loadModel(ref: string, domainDir: string): Promise<{ id: string; model: LearnedModel }> {
  const byId = /^[0-9a-f]{16}$/.test(ref) ? join(domainDir, MODELS_DIR, `${ref}.bin`) : null;
  const file =
    byId && existsSync(byId)
      ? byId
      : isAbsolute(ref) || ref.includes('/') || ref.endsWith('.bin')
        ? resolve(ref)
        : null;
  if (!file || !existsSync(file)) {
    throw new Error(
      `--embedding-model ${ref}: no such model (looked for ${byId ?? resolve(ref)}; a build writes its model ` +
        `to ${join(domainDir, MODELS_DIR)}/<id>.bin)`,
    );
  }
  const bytes = new Uint8Array(readFileSync(file));
  if (!(await verifySeal(bytes)))
    throw new Error(`--embedding-model ${ref}: ${file} is damaged (its seal does not match its content)`);
  try {
    return { id: modelId(bytes), model: decodeModel(bytes) };
  } catch (err) {
    throw new Error(`--embedding-model ${ref}: ${file} is not a model (${(err as Error).message})`);
  }
}

/**
 * The filings a model learns co-occurrences from: all of them up to `limit` (EmbeddingOptions.sampleFilings), else
 * that many chosen by the SHA-256 of their doc_id (deterministic, independent of input order, spread over issuers
 * and years).
 */
export function embeddingSample(docIds: readonly string[], limit: number): Set<string> {
  if (docIds.length <= limit) return new Set(docIds);
  const ranked = docIds.map((id) => [sha256(id), id] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Set(ranked.slice(0, limit).map(([, id]) => id));
}
