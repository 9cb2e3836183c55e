import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPagesFile, resolveSource, sweepX402Pages, withQuery } from '../../../pipeline/ingest/index.ts';
import { tempDir } from '../../helpers/context.ts';
import { x402Item } from './support.ts';

describe('registry sources', () => {
  it('reads a snapshot file as one page, an array of pages, or ndjson pages', () => {
    const t = tempDir();
    try {
      const page = (n: number) => ({ items: [x402Item(`https://p${n}.example/`)], pagination: { limit: 1, offset: n, total: 3 } });
      writeFileSync(join(t.dir, 'one.json'), JSON.stringify(page(0)));
      writeFileSync(join(t.dir, 'many.json'), JSON.stringify([page(0), page(1), page(2)]));
      writeFileSync(join(t.dir, 'many.ndjson'), `${JSON.stringify(page(0))}\n\n${JSON.stringify(page(1))}\n${JSON.stringify(page(1))}\n`);
      expect(readPagesFile(join(t.dir, 'one.json'))).toHaveLength(1);
      expect(sweepX402Pages(readPagesFile(join(t.dir, 'many.json')), 'f').items).toHaveLength(3);
      const nd = sweepX402Pages(readPagesFile(join(t.dir, 'many.ndjson')), 'f');
      expect([nd.items.length, nd.duplicates, nd.complete]).toEqual([2, 1, true]);
      writeFileSync(join(t.dir, 'bad.ndjson'), '{"items":[]}\n{oops\n');
      expect(() => readPagesFile(join(t.dir, 'bad.ndjson'))).toThrow(/bad\.ndjson:2: not JSON/);
      expect(() => resolveSource(join(t.dir, 'nope.json'))).toThrow(/not found/);
      expect(() => resolveSource('ftp://x.example/list')).toThrow(/http\(s\) URL or a file/);
      expect(resolveSource('https://r.example/v0.1/servers')).toEqual({ kind: 'url', url: 'https://r.example/v0.1/servers' });
    } finally {
      t.cleanup();
    }
  });

  it('keeps the operator configured query parameters when paging', () => {
    expect(withQuery('https://r.example/discovery/resources?type=http&x=1', { limit: 10, offset: 20, cursor: undefined })).toBe(
      'https://r.example/discovery/resources?type=http&x=1&limit=10&offset=20',
    );
  });
});
