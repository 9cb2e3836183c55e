import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  bucketFile,
  INDEX_BUCKETS_FILE,
  type IndexBuckets,
  type IndexRecordFile,
  type Report,
  type ReportList,
  type ServiceDetailFile,
  type ServiceList,
  type Stats,
  type Status,
} from '../../site/contract/index.ts';
import { indexFileRecords } from '../../site/contract/index-file.ts';
import { CSS, JS } from '../../site/pages/assets.ts';
import { renderDirectoryPage } from '../../site/pages/directory.ts';
import { renderErrorPage } from '../../site/pages/error-page.ts';
import type { PageMeta } from '../../site/pages/model.ts';
import { renderReportsPage, type ReportView } from '../../site/pages/reports.ts';
import { renderServicePage } from '../../site/pages/service.ts';
import { defaultDirectoryList } from '../../site/pages/static-list.ts';
import { renderStatusPage } from '../../site/pages/status.ts';

export interface WritePagesOptions {
  generatedAt: Date;
  /** The instance's public base URL, for absolute links (badge snippets); see PageMeta.baseUrl. */
  baseUrl?: string;
  /** Services whose page is already in the folder (rendered by publish, or hard-linked from the previous generation): not rendered again. */
  skip?: ReadonlySet<string>;
  /**
   * The services whose page is missing, when the caller knows them (publish: the unchanged services
   * whose page could not be linked): only these are rendered, and the folder of detail files is not
   * listed (100,000 names at 100,000 services). Default: every detail file not in `skip`.
   */
  only?: readonly string[];
  /** The directory list of `index.html`, when the caller built it already (publish streams it from the index). */
  directory?: ServiceList;
}

/**
 * Render one page; if the published data does not fit the renderer (a contract drift), write a
 * plain page saying so instead of failing the whole publish — the JSON stays authoritative.
 */
function safeRender(render: () => string, meta: PageMeta, what: string): string {
  try {
    return render();
  } catch (e) {
    return renderErrorPage(
      {
        title: 'Page not available',
        message: `The ${what} page could not be built from the published data (${(e as Error)?.message ?? 'unknown error'}). The JSON API has the data.`,
      },
      meta,
    );
  }
}

async function readJson<T>(path: string): Promise<T | null> {
  if (!existsSync(path)) return null;
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/** Every record of a generation's index, bucket by bucket (none when it has no index). */
async function indexRecords(generationDir: string): Promise<IndexRecordFile[]> {
  const layout = await readJson<IndexBuckets>(join(generationDir, INDEX_BUCKETS_FILE));
  if (!layout) return [];
  const out: IndexRecordFile[] = [];
  for (let b = 0; b < layout.counts.length; b++)
    if (layout.counts[b])
      out.push(...(indexFileRecords(await readFile(join(generationDir, bucketFile(b, layout.bits)), 'utf8')) as IndexRecordFile[]));
  return out;
}

/** Run `fn` over items with at most `n` in flight (file writes; keeps descriptors bounded). */
async function eachLimited<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/**
 * The static page of one service (`services/<id>.html`) from its published file. It depends on the
 * file and the base URL only (no publish instant), so an unchanged service's page can be shared
 * between generations; publish renders it while it shapes the service (pipeline/publish/services.ts),
 * writePages renders the pages of detail files not yet paged. The file's `monitoring_days` (a
 * render-instant member, site/contract/service-file.ts) is left off the page: on a static host the
 * count would go stale, so the page shows the "monitoring since" date alone.
 */
export function staticServicePage(detail: ServiceDetailFile, baseUrl?: string): string {
  const pageMeta: PageMeta = { generatedAt: null, live: false, ...(baseUrl ? { baseUrl } : {}) };
  return safeRender(
    () => {
      const { monitoring_days: _days, ...evidence } = detail.evidence;
      return renderServicePage({ ...detail, evidence }, pageMeta);
    },
    pageMeta,
    'service',
  );
}

/** Reports of the generation as the page shows them: current plus every frozen week, newest first. */
export async function readReports(generationDir: string): Promise<{ current: ReportView | null; weeks: ReportView[] }> {
  const dir = join(generationDir, 'api', 'v1', 'reports');
  const list = await readJson<ReportList>(join(dir, 'index.json'));
  const current = await readJson<Report>(join(dir, 'current.json'));
  const weeks: ReportView[] = [];
  for (const item of list?.items ?? []) {
    const r = await readJson<Report>(join(dir, `${item.id}.json`));
    if (r) weeks.push(r as unknown as ReportView);
  }
  return { current: (current as unknown as ReportView) ?? null, weeks };
}

/**
 * Contract (CONTRACTS.md "Published tree"): reads the JSON publish already wrote into
 * `generationDir` and writes `index.html` (the directory's first page, default query),
 * `services/<id>.html` for every service detail file (but those in `skip`; or those in `only`), `status.html`, `reports.html` and
 * `assets/atlas.css|js`. Missing inputs (e.g. no reports yet) give pages saying so; nothing outside
 * `generationDir` is touched.
 */
export async function writePages(generationDir: string, opts: WritePagesOptions): Promise<void> {
  const meta: PageMeta = { generatedAt: opts.generatedAt, live: false, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}) };
  const api = join(generationDir, 'api', 'v1');
  await mkdir(join(generationDir, 'assets'), { recursive: true });
  await mkdir(join(generationDir, 'services'), { recursive: true });
  await writeFile(join(generationDir, 'assets', 'atlas.css'), CSS);
  await writeFile(join(generationDir, 'assets', 'atlas.js'), JS);

  const status = await readJson<Status>(join(api, 'status.json'));
  const stats = await readJson<Stats>(join(api, 'stats.json'));
  const list = opts.directory ?? defaultDirectoryList(await indexRecords(generationDir), opts.generatedAt, stats?.data_as_of ?? null);
  await writeFile(
    join(generationDir, 'index.html'),
    safeRender(() => renderDirectoryPage({ list, form: {} }, meta), meta, 'directory'),
  );

  const servicesDir = join(api, 'services');
  const skip = opts.skip;
  const files = opts.only
    ? opts.only.map((id) => `${id}.json`)
    : existsSync(servicesDir)
      ? (await readdir(servicesDir)).filter((f) => f.endsWith('.json') && !skip?.has(f.slice(0, -'.json'.length)))
      : [];
  await eachLimited(files, 32, async (file) => {
    const detail = await readJson<ServiceDetailFile>(join(servicesDir, file));
    if (!detail) return;
    await writeFile(join(generationDir, 'services', `${detail.id}.html`), staticServicePage(detail, opts.baseUrl));
  });

  if (status)
    await writeFile(
      join(generationDir, 'status.html'),
      safeRender(() => renderStatusPage({ status, stats }, meta), meta, 'status'),
    );

  const reports = await readReports(generationDir);
  await writeFile(
    join(generationDir, 'reports.html'),
    safeRender(() => renderReportsPage(reports, meta), meta, 'reports'),
  );
}
