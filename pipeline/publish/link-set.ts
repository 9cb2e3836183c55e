import { unlinkSync } from 'node:fs';
import { linkInBackground, PreviousGenerationUnusable, type PreviousGeneration } from './incremental.ts';

export const detailPath = (id: string) => `api/v1/services/${id}.json`;
export const pagePath = (id: string) => `services/${id}.html`;

/**
 * The files of the previous generation's services (detail file, and page with `pages`), hard-linked
 * into the new generation on a worker thread while DuckDB stages and fingerprints: most services
 * are unchanged, and the links would otherwise come after the SQL. What turns out changed is
 * written over its link by rename (file-writer.ts); what is no longer published is unlinked by
 * `reconcile`. The set owns the link results: ask it by service id.
 */
export class LinkSet {
  private linked: Map<string, { detail: boolean; page: boolean }> | null = null;
  private readonly ids: readonly string[];
  private readonly linking: Promise<Uint8Array> | null;

  constructor(
    previous: PreviousGeneration | null,
    private readonly genDir: string,
    private readonly pages: boolean,
  ) {
    this.ids = previous ? [...previous.fingerprints.keys()] : [];
    if (!previous) {
      this.linking = null;
      return;
    }
    const rels = this.ids.map(detailPath);
    if (pages) for (const id of this.ids) rels.push(pagePath(id));
    this.linking = linkInBackground(previous.dir, genDir, rels);
    this.linking.catch(() => undefined); // awaited by settle, or by close on an error path
  }

  /** Wait for the worker and keep its results (a worker that could not run rejects). */
  async settle(): Promise<void> {
    const ok = this.linking ? await this.linking : new Uint8Array(0);
    const n = this.ids.length;
    this.linked = new Map(this.ids.map((id, i) => [id, { detail: ok[i] === 1, page: this.pages && ok[n + i] === 1 }]));
  }

  /**
   * After `settle`: the ids (of `shared`) whose page was linked. Every shared service's detail file
   * must have been linked, else the previous generation is not what its fingerprints say.
   */
  sharedPages(shared: readonly string[]): string[] {
    const links = this.results();
    const missing = shared.filter((id) => !links.get(id)?.detail);
    if (missing.length)
      throw new PreviousGenerationUnusable(
        `publish: ${missing.length} detail file(s) of unchanged services could not be linked from the previous generation, e.g. ${detailPath(missing[0]!)}`,
      );
    return this.pages ? shared.filter((id) => links.get(id)!.page) : [];
  }

  /**
   * After `settle`: a linked file of a service not published now (removed, or skipped as invalid)
   * loses its name; `published` holds every service published (shared or rendered: a rendered
   * one's link was already replaced by its new file).
   */
  reconcile(published: ReadonlySet<string>): void {
    for (const [id, l] of this.results()) {
      if (published.has(id)) continue;
      if (l.detail) unlinkSync(`${this.genDir}/${detailPath(id)}`);
      if (l.page) unlinkSync(`${this.genDir}/${pagePath(id)}`);
    }
  }

  /** No link lands in a folder the caller may remove: call in a `finally`. */
  async close(): Promise<void> {
    await this.linking?.catch(() => undefined);
  }

  private results(): Map<string, { detail: boolean; page: boolean }> {
    if (!this.linked) throw new Error('publish: the link results were asked for before the links settled');
    return this.linked;
  }
}
