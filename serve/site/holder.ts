import { watch, type FSWatcher } from 'node:fs';
import type { Clock } from '../../pipeline/core/clock.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';
import type { Logger } from '../../pipeline/core/log.ts';
import { loadGeneration, resolveCurrent } from './load.ts';
import type { SiteState } from './state.ts';

/**
 * Holds the loaded generation and follows the `current` pointer (fs.watch on the site folder plus
 * a periodic check, since watch events can be lost or coalesced). A new generation is loaded fully
 * in the background and then swapped in with one assignment: in-flight requests keep the object
 * they started with, so nothing fails during a switch. A generation that fails to load is logged
 * and the old one stays.
 */
export interface SiteHolder {
  /** The loaded generation; throws a 503 AtlasError before the first publish. */
  current(): SiteState;
  peek(): SiteState | null;
  /** Check the pointer now; resolves true when a new generation was swapped in. */
  reload(): Promise<boolean>;
  /** Follow the pointer until close(). */
  watch(intervalMs?: number): void;
  close(): void;
  /** Subscribers run after each swap (e.g. to clear caches keyed by the old generation). */
  onSwap(fn: (next: SiteState) => void): void;
}

export interface SiteHolderOptions {
  siteDir: string;
  clock: Clock;
  log: Logger;
}

export function createSiteHolder(opts: SiteHolderOptions): SiteHolder {
  let state: SiteState | null = null;
  let loading: Promise<boolean> | null = null;
  let again = false;
  let failedDir: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let watcher: FSWatcher | null = null;
  const listeners: ((s: SiteState) => void)[] = [];

  async function loadIfChanged(): Promise<boolean> {
    const dir = resolveCurrent(opts.siteDir);
    if (!dir || dir === state?.dir || dir === failedDir) return false;
    try {
      const next = await loadGeneration(dir, opts.clock());
      state = next; // the swap: one reference assignment
      failedDir = null;
      opts.log.info('serve: loaded generation', { generation: next.generation, services: next.rows.length });
      for (const fn of listeners) fn(next);
      return true;
    } catch (e) {
      failedDir = dir; // do not retry the same broken folder on every tick
      opts.log.warn('serve: could not load generation; keeping the previous one', { dir, error: (e as Error).message });
      return false;
    }
  }

  function reload(): Promise<boolean> {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      let changed = false;
      try {
        do {
          again = false;
          changed = (await loadIfChanged()) || changed;
        } while (again);
      } finally {
        loading = null;
      }
      return changed;
    })();
    return loading;
  }

  return {
    current() {
      if (!state) throw new AtlasError('source_failed', 'no published generation yet; run `atlas publish`');
      return state;
    },
    peek: () => state,
    reload,
    watch(intervalMs = 2000) {
      if (timer) return;
      const kick = () => void reload().catch(() => undefined);
      timer = setInterval(kick, intervalMs);
      timer.unref();
      try {
        watcher = watch(opts.siteDir, { persistent: false }, (_event, name) => {
          if (!name || String(name) === 'current' || String(name).startsWith('current')) kick();
        });
        watcher.on('error', () => undefined);
      } catch {
        // The folder may not exist before the first publish; the periodic check covers it.
      }
    },
    close() {
      if (timer) clearInterval(timer);
      timer = null;
      watcher?.close();
      watcher = null;
    },
    onSwap(fn) {
      listeners.push(fn);
    },
  };
}
