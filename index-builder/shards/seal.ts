import { createHash } from 'node:crypto';
import { sealedPart, writeSeal } from '../../index-format/container';

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Seals a container artifact (index-format/container.ts): the SHA-256 of its content, which readers verify. */
export function seal(bytes: Uint8Array): Uint8Array {
  return writeSeal(bytes, createHash('sha256').update(sealedPart(bytes)).digest());
}
