import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fieldEntries } from '../../site/contract/field-dictionary.ts';
import { buildOpenApi } from '../../site/contract/openapi.ts';
import { renderApiReference } from './api-reference.ts';

/** `npm run docs:api`: rewrite docs/api.md from the contract. */
export const API_REFERENCE_PATH = fileURLToPath(new URL('../../docs/api.md', import.meta.url));

export const currentApiReference = (): string => renderApiReference(buildOpenApi(), fieldEntries());

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(API_REFERENCE_PATH, currentApiReference());
  console.log(`wrote ${API_REFERENCE_PATH}`);
}
