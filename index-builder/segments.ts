/** Kept for existing imports: segment extraction lives in index-builder/entities/segments.ts. */
export { segmentNames } from './entities/segments';
