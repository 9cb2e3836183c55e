import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildServerJson, SERVER_DESCRIPTION, SERVER_JSON_SCHEMA } from '../../../site/discovery/index.ts';

/*
 * The MCP registry's published server.json schema, vendored under test/fixtures/mcp-registry/
 * (source and commit in the README there:
 * https://github.com/modelcontextprotocol/registry/blob/7c0bbf25bcdf794c4622afbf1b72b99d0281ca6b/docs/reference/server-json/server.schema.json).
 */
const schema = JSON.parse(readFileSync(new URL('../../fixtures/mcp-registry/server.schema.json', import.meta.url), 'utf8'));
// ajv-formats is CommonJS: under Node's ESM interop its function is the module's `default` member.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

function validator() {
  // strict: false because the schema uses OpenAPI annotation keywords (example, discriminator).
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe('server.json', () => {
  const validate = validator();

  it('is valid against the registry schema it names', () => {
    const doc = buildServerJson({ baseUrl: 'https://atlas.example/', registryName: 'io.github.example/atlas' });
    expect(doc.$schema).toBe(SERVER_JSON_SCHEMA);
    expect(schema.$id).toBe(SERVER_JSON_SCHEMA);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.remotes).toEqual([{ type: 'streamable-http', url: 'https://atlas.example/mcp' }]);
    expect(doc.name).toBe('io.github.example/atlas');
    expect(SERVER_DESCRIPTION.length).toBeLessThanOrEqual(100);
  });

  it('is valid with the default base URL', () => {
    const doc = buildServerJson({ baseUrl: 'http://127.0.0.1:8787', registryName: 'io.github.atlas-directory/atlas' });
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the validator rejects what the registry rejects (so the check above can fail)', () => {
    const doc = buildServerJson({ baseUrl: 'https://atlas.example', registryName: 'io.github.example/atlas' });
    expect(validate({ ...doc, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...doc, name: 'no-slash' })).toBe(false);
    expect(validate({ ...doc, remotes: [{ type: 'stdio' }] })).toBe(false);
  });
});
