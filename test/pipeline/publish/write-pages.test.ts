import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePages } from '../../../pipeline/publish/write-pages.ts';
import { tempDir } from '../../helpers/context.ts';
import { discoveredDetail, NOW, report, reviewedDetail, stats, status, summaryOf } from '../../site/pages/fixtures.ts';
import { writeIndexFiles } from '../../helpers/index-files.ts';

function writeJson(path: string, body: unknown) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(body));
}

describe('writePages', () => {
  it('writes the directory (first page, in-directory services only), one page per service, status, reports and assets', async () => {
    const t = tempDir();
    try {
      const gen = join(t.dir, 'generations', 'g1');
      const d = discoveredDetail();
      const r = reviewedDetail();
      writeIndexFiles(gen, [
        { summary: summaryOf(d), in_directory: true, search: {} },
        { summary: summaryOf(r), in_directory: false, search: {} },
      ]);
      writeJson(join(gen, 'api', 'v1', 'services', `${d.id}.json`), d);
      writeJson(join(gen, 'api', 'v1', 'services', `${r.id}.json`), r);
      writeJson(join(gen, 'api', 'v1', 'status.json'), status());
      writeJson(join(gen, 'api', 'v1', 'stats.json'), stats());
      writeJson(join(gen, 'api', 'v1', 'reports', 'index.json'), {
        items: [{ id: '2026-11-16' }],
        current: { api: '/api/v1/reports/current' },
      });
      writeJson(join(gen, 'api', 'v1', 'reports', '2026-11-16.json'), report('2026-11-16', 1));
      writeJson(join(gen, 'api', 'v1', 'reports', 'current.json'), report('current'));

      await writePages(gen, { generatedAt: NOW });

      const index = readFileSync(join(gen, 'index.html'), 'utf8');
      expect(index).toContain('<strong>1</strong> service in the directory');
      expect(index).toContain(`href="/services/${d.id}"`);
      expect(index).not.toContain(`href="/services/${r.id}"`);
      expect(index).toContain('This is a static copy');
      const page = readFileSync(join(gen, 'services', `${d.id}.html`), 'utf8');
      expect(page).toContain('id="chart-history"');
      expect(existsSync(join(gen, 'services', `${r.id}.html`))).toBe(true);
      expect(readFileSync(join(gen, 'status.html'), 'utf8')).toContain('<h1>Status</h1>');
      expect(readFileSync(join(gen, 'reports.html'), 'utf8')).toContain('Corrections (1)');
      expect(readFileSync(join(gen, 'assets', 'atlas.css'), 'utf8')).toContain('svg.chart');
      expect(readFileSync(join(gen, 'assets', 'atlas.js'), 'utf8')).toContain('requestSubmit');
    } finally {
      t.cleanup();
    }
  });

  it('works on a generation without services, status or reports, and never fails on a malformed detail', async () => {
    const t = tempDir();
    try {
      const gen = join(t.dir, 'g');
      writeJson(join(gen, 'api', 'v1', 'services', 'cand_broken.json'), { id: 'cand_broken' });
      await writePages(gen, { generatedAt: NOW });
      expect(readFileSync(join(gen, 'index.html'), 'utf8')).toContain('<strong>0</strong> services');
      expect(readFileSync(join(gen, 'services', 'cand_broken.html'), 'utf8')).toContain('Page not available');
      expect(readFileSync(join(gen, 'reports.html'), 'utf8')).toContain('No week has ended');
      expect(existsSync(join(gen, 'status.html'))).toBe(false);
    } finally {
      t.cleanup();
    }
  });
});
