import { Validator, type Schema } from '@cfworker/json-schema';
import { openApiDocument } from '../../src/openapi/document';

const DOC_URI = 'https://filing-evidence.test/openapi.json';
const validators = new Map<string, Validator>();

/** A validator for one component schema of the service's own OpenAPI document (refs resolved inside it). */
function validatorFor(component: string): Validator {
  let v = validators.get(component);
  if (!v) {
    v = new Validator({ $ref: `${DOC_URI}#/components/schemas/${component}` } as Schema, '2020-12', false);
    v.addSchema(openApiDocument() as Schema, DOC_URI);
    validators.set(component, v);
  }
  return v;
}

/** Validation errors of `value` against a component schema; empty when it conforms. */
export function openApiErrors(component: string, value: unknown): string[] {
  const result = validatorFor(component).validate(value);
  return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** The component schema the document declares for a response of `method path` with `status`. */
export function responseComponent(method: string, path: string, status: number): string {
  const doc = openApiDocument() as any;
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`no operation ${method} ${path} in the OpenAPI document`);
  const response = op.responses[String(status)];
  if (!response) throw new Error(`${method} ${path} does not declare status ${status}`);
  const ref: string | undefined = response.content?.['application/json']?.schema?.$ref;
  return ref ? ref.split('/').pop()! : '';
}
