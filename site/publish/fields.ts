import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildFields, buildOpenApi, Fields } from '../contract/index.ts';
import { apiPath as api } from './paths.ts';
import { writeJson } from './write.ts';

/** fields.json (the field dictionary) and openapi.json, both generated from the contract schemas. */
export async function writeFieldsAndOpenApi(genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'fields.json'), Fields, buildFields(now), 'fields');
  await writeFile(join(genDir, 'openapi.json'), JSON.stringify(buildOpenApi()));
}
