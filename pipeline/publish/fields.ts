import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildFields, buildOpenApi, Fields, OpenApiFile } from '../../site/contract/index.ts';
import { apiPath as api } from './paths.ts';
import { validated, writeJson } from './write.ts';

/**
 * fields.json (the field dictionary) and openapi.json, both generated from the contract schemas;
 * openapi.json is checked against its published-file schema (its frame) and written as built.
 */
export async function writeFieldsAndOpenApi(genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'fields.json'), Fields, buildFields(now), 'fields');
  const openapi = buildOpenApi();
  validated(OpenApiFile, openapi, 'openapi.json');
  await writeFile(join(genDir, 'openapi.json'), JSON.stringify(openapi));
}
