import { describe, expect, it } from 'vitest';
import {
  CHANGES_QUERY_PARAMS,
  ChangesQuerySchema,
  NOTES,
  SERVICES_QUERY_PARAMS,
  ServicesQuerySchema,
} from '../../../site/contract/index.ts';
import {
  CHANGES_PARAM_EXAMPLES,
  CHECK_INTERVALS_RULE,
  renderLlmsTxt,
  SERVICES_PARAM_EXAMPLES,
  TERMS_CHANGES_RULE,
} from '../../../site/discovery/index.ts';

const BASE = 'https://atlas.example/sub';

describe('llms.txt', () => {
  const text = renderLlmsTxt(`${BASE}/`);

  it('lists every search and changes parameter of the contract, each with an absolute example URL', () => {
    for (const p of SERVICES_QUERY_PARAMS) {
      expect(text).toContain(`- \`${p.name}\` (`);
      expect(text).toContain(`${BASE}/api/v1/services?${p.name}=${encodeURIComponent(SERVICES_PARAM_EXAMPLES[p.name])}`);
    }
    for (const p of CHANGES_QUERY_PARAMS) {
      expect(text).toContain(`- \`${p.name}\` (`);
      expect(text).toContain(`${BASE}/api/v1/changes?${p.name}=${encodeURIComponent(CHANGES_PARAM_EXAMPLES[p.name])}`);
    }
  });

  it('gives only examples the contract accepts', () => {
    for (const [name, value] of Object.entries(SERVICES_PARAM_EXAMPLES)) {
      const r = ServicesQuerySchema.safeParse({ [name]: value });
      expect(r.success, `${name}=${value}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
    }
    for (const [name, value] of Object.entries(CHANGES_PARAM_EXAMPLES)) {
      expect(ChangesQuerySchema.safeParse({ [name]: value }).success, `${name}=${value}`).toBe(true);
    }
    // The example tables name no parameter the contract lacks.
    expect(Object.keys(SERVICES_PARAM_EXAMPLES).sort()).toEqual(SERVICES_QUERY_PARAMS.map((p) => p.name).sort());
  });

  it('states the rules (the notes texts and the two rules notes does not carry)', () => {
    for (const t of [
      NOTES.pass_rules,
      NOTES.evidence_windows,
      NOTES.freshness,
      NOTES.directory,
      NOTES.prices,
      CHECK_INTERVALS_RULE,
      TERMS_CHANGES_RULE,
    ])
      expect(text).toContain(t);
  });

  it('links the MCP endpoint, OpenAPI, the field dictionary and server.json absolutely', () => {
    for (const path of ['/mcp', '/openapi.json', '/api/v1/fields', '/server.json', '/badges/{id}.svg'])
      expect(text).toContain(`${BASE}${path}`);
    // Every link target is absolute: no Markdown link to a bare path.
    expect(text).not.toMatch(/\]\(\//);
    expect(text.startsWith('# Atlas\n\n> ')).toBe(true);
  });
});
