import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApiReference } from '../../../pipeline/publish/api-reference.ts';
import { API_REFERENCE_PATH, currentApiReference } from '../../../pipeline/publish/write-api-reference.ts';

describe('docs/api.md, the API reference generated from the contract', () => {
  it('is current: the committed file equals the rendering of today’s contract (npm run docs:api)', () => {
    expect(readFileSync(API_REFERENCE_PATH, 'utf8')).toBe(currentApiReference());
  });

  it('lists every operation, parameter bound and field entry, escaping table cells', () => {
    const md = renderApiReference(
      {
        info: { version: '9', description: 'd' },
        paths: {
          '/x': {
            get: {
              summary: 'a | b',
              responses: { 200: {}, 404: {} },
              parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 }, description: 'page' }],
            },
          },
        },
      },
      [{ path: 'total', resource: 'ServiceList', type: 'integer', definition: 'matches', unit: null, window: null, source: 'computed' }],
    );
    expect(md).toContain('| GET | `/x` | a \\| b | 200, 404 |');
    expect(md).toContain('| `limit` | query | integer, >= 1, <= 100 | page |');
    expect(md).toContain('### ServiceList');
    expect(md).toContain('| `total` | integer | matches |  |  | computed |');
  });
});
