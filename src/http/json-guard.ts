import { ApiError, type FieldError } from '../errors';

/**
 * Rejects own `__proto__` keys anywhere in a parsed JSON body. JSON.parse keeps `"__proto__"` as an ordinary own
 * key, but any later copy of the object by assignment (`out[key] = value`, as schema validators and spreads do)
 * turns it into a prototype change: the key silently disappears instead of being rejected as unknown, and the copy
 * inherits attacker-chosen properties. Refusing it up front keeps "unknown keys are rejected" true for every key.
 * Iterative, so a deeply nested body (bounded by the 64 KiB cap) cannot overflow the stack.
 */
export function rejectProtoKeys(value: unknown): void {
  const errors: FieldError[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        stack.push([item, `${path}[${i}]`]);
      });
      continue;
    }
    for (const key of Object.keys(node)) {
      const at = path ? `${path}.${key}` : key;
      if (key === '__proto__') errors.push({ path: at, message: 'the key "__proto__" is not accepted' });
      else stack.push([(node as Record<string, unknown>)[key], at]);
    }
  }
  if (errors.length) throw new ApiError('VALIDATION_ERROR', { errors: errors.slice(0, 20) });
}
