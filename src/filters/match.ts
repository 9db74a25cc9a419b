import type { SourceMeta } from '../../index-format/types';
import type { Condition } from './parse';

/** Does one source satisfy every condition? Unknown (null) values never match a positive condition. */
export function matchesConditions(meta: SourceMeta, conditions: readonly Condition[]): boolean {
  for (const c of conditions) {
    const v = meta[c.field];
    switch (c.op) {
      case 'eq':
      case 'in':
        if (v === null || !c.values.includes(v)) return false;
        break;
      case 'neq':
        if (v !== null && c.values.includes(v)) return false;
        break;
      case 'gte':
        if (v === null || v < c.values[0]!) return false;
        break;
      case 'lte':
        if (v === null || v > c.values[0]!) return false;
        break;
    }
  }
  return true;
}
