import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import { openApiDocument } from '../../src/openapi/document';

// Both linters run in-process on the served document: no files, no network, no telemetry (the CLIs are not used).
const source = JSON.stringify(openApiDocument());

describe('the OpenAPI document under two linters', () => {
  it('has no finding under Spectral spectral:oas (the recommended OpenAPI ruleset)', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const findings = await spectral.run(source);
    expect(findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`)).toEqual([]);
  });

  it('has no finding under Redocly recommended', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      // The service is private and names no license; the rule would have it invent one.
      rules: { 'info-license': 'off' },
    });
    const problems = await lintFromString({ source, absoluteRef: '/openapi.json', config });
    expect(problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it('takes its version from package.json', () => {
    expect((openApiDocument() as { info: { version: string } }).info.version).toBe(packageJson.version);
  });
});
