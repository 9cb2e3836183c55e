import { storageError } from '../core/errors.ts';
import { join } from 'node:path';
import type { Context } from '../core/context.ts';
import { type Run, withRun } from '../store/runs.ts';
import type { Store } from '../store/store.ts';
import {
  API_VERSION,
  type RenderInstants,
  type ServiceDetailFile,
  LISTING_CRITERIA_RULE,
  Manifest,
  scheduleTierServed,
  bucketBits as indexBucketBits,
} from '../../site/contract/index.ts';
import { staticServicePage, writePages } from './write-pages.ts';
import {
  createGenerationDir,
  currentGeneration,
  generationDir,
  newGenerationId,
  pruneGenerations,
  removeTree,
  removeUnsealedGenerations,
  switchCurrent,
} from './generation.ts';
import { writeChanges } from './changes.ts';
import { writeDiscovery } from './discovery.ts';
import { writeFieldsAndOpenApi } from './fields.ts';
import { writeHeadersFile } from './headers-file.ts';
import { writeHealth } from './health.ts';
import { writeModerationIndex } from './moderation.ts';
import { writeReports } from './reports.ts';
import { writeRoadmap } from './roadmap.ts';
import { writeStats, writeStatus } from './stats-status.ts';
import { writeServices, type ServicesOptions, type ServicesResult } from './services.ts';
import { writeJson } from './write.ts';
import { stepTimer } from '../core/step-timer.ts';
import { publicBaseUrl } from '../core/config.ts';
import { loadSigningKey, type SigningKey } from '../core/signing-key.ts';
import { entryLine } from './checksums.ts';
import { type SealResult, sealGeneration } from './seal.ts';
import { fingerprintSalt } from './fingerprint.ts';
import { type PreviousGeneration, PreviousGenerationUnusable, previousGeneration, sealedLineFinder } from './incremental.ts';
import { dayRange } from '../../site/contract/daily-series.ts';
import { staticDirectoryList } from './static-list.ts';
import { dataAsOf } from '../compute/status.ts';
import { lastFullEvaluation } from '../compute/directory.ts';

export interface PublishOptions extends ServicesOptions {
  /** Public folder (default ctx.paths.publicDir). */
  out?: string;
  /** Generations kept after the switch (default 3). */
  keep?: number;
  /** Write the HTML pages (default true; site/pages/index.ts). */
  pages?: boolean;
  /** Render every service, sharing nothing with the previous generation (`atlas publish --full`). */
  full?: boolean;
}

export interface PublishResult {
  generation: string;
  dir: string;
  counts: Manifest['counts'];
  invalid: number;
  pages: boolean;
  pruned: string[];
  ms: number;
  /** Milliseconds per step (services, stats, status, ..., pages, seal, switch), for the timing figures. */
  steps: Record<string, number>;
  /** Files listed in the signed checksums.json, and the signing key's id. */
  sealed: { files: number; keyId: string };
  /**
   * What this generation shares with the previous one: the generation it shared from (null: a full
   * publish), services rendered, and files hard-linked instead of written.
   */
  incremental: { previous: string | null; rendered: number; linked: number };
}

/**
 * `atlas publish`: write a new generation of the static tree, then switch `<public>/current` to it
 * atomically and prune old generations (CONTRACTS.md "Published tree"). Every JSON body is
 * validated against the contract before it is written; `manifest.json` is the last body, so a
 * generation with a manifest is complete. The generation is then sealed (seal.ts), the last write
 * before the switch: every file's size and SHA-256 in `checksums.json`, signed with the
 * installation's Ed25519 key, so a mirrored copy can be verified offline (`atlas verify --tree`).
 * Reads only: services, compute outputs, runs, changes, reports. Records one `runs` row (kind
 * publish). A failure leaves `current` untouched and removes the half-written generation; what a
 * killed publish could not remove, the next publish does first (unsealed generations, generation.ts).
 */
export async function publish(ctx: Context, store: Store, opts: PublishOptions = {}): Promise<PublishResult> {
  const now = ctx.clock();
  return withRun(store, 'publish', { clock: ctx.clock, startedAt: now, args: { out: opts.out ?? null } }, (run) =>
    writeGeneration(ctx, store, opts, now, run),
  );
}

/** The timer of one publish: every job is timed under its own step name (stepTimer). */
type Step = ReturnType<typeof stepTimer>['step'];

/** What the publish of one generation knows before it writes any service. */
interface Inputs {
  now: Date;
  publicDir: string;
  generation: string;
  genDir: string;
  pages: boolean;
  baseUrl: string;
  bucketBits: number;
  salt: string;
  /** The generation `current` points to (null: none, or `--full`). */
  prevId: string | null;
  previous: PreviousGeneration | null;
  /** This publish's instants, carried by a rendered service file (site/contract/service-file.ts). */
  render: RenderInstants;
}

async function writeGeneration(ctx: Context, store: Store, opts: PublishOptions, now: Date, run: Run): Promise<PublishResult> {
  const publicDir = opts.out ?? ctx.paths.publicDir;
  const generation = newGenerationId(now);
  let dir: string | null = null;
  const t0 = performance.now();
  const { steps, step } = stepTimer();
  let pruning: Promise<string[]> | null = null;
  try {
    // Loaded (created on first use) before anything is written: no key, no generation.
    const key = loadSigningKey(ctx.paths.signingKey);
    await step('cleanup', () => removeUnsealed(ctx, publicDir));
    const genDir = await createGenerationDir(publicDir, generation);
    dir = genDir; // removed again if anything below fails before the switch
    pruning = pruneInBackground(ctx, publicDir, opts.keep ?? 3, generation);
    const inputs = await readInputs(ctx, store, opts, step, { now, publicDir, generation, genDir });
    const services = await step('services', () => servicesOrFullRender(ctx, store, opts, inputs));
    if (services.fellBack) inputs.previous = null;
    for (const [k, v] of Object.entries(services.timings)) steps[`services.${k}`] = v;
    const counts = await writeResources(ctx, store, inputs, services, run, key, step);
    const linked = await writeServicePages(inputs, services, step);
    await step('headers', () => writeHeadersFile(genDir)); // the static host's caching rules (site/contract/http-cache.ts)
    await step('manifest', () => writeManifest(store, inputs, counts));
    const sealed = await step('seal', () => seal(inputs, services, linked, key));
    const pruned = await step('prune', () => pruning!);
    await step('switch', () => switchCurrent(publicDir, generation));
    dir = null; // live now: never removed by the error path below
    const ms = Math.round(performance.now() - t0);
    const incremental = { previous: inputs.previous ? inputs.prevId : null, rendered: services.rendered.length, linked: linked.length };
    const extra = { pages: inputs.pages, ms, steps, generation, sealed_files: sealed.files, key_id: sealed.keyId, incremental };
    run.counts = { ...counts, invalid: services.invalid, ...extra };
    ctx.log.info(
      `published generation ${generation}: ${counts.services} services (${counts.in_directory} in the directory), ${incremental.rendered} rendered, ${incremental.linked} files shared, in ${ms} ms`,
    );
    const result = { generation, dir: genDir, counts, invalid: services.invalid, pages: inputs.pages, pruned, ms, steps };
    return { ...result, sealed: { files: sealed.files, keyId: sealed.keyId }, incremental };
  } catch (e) {
    await pruning?.catch(() => undefined);
    if (dir) await removeTree(dir).catch(() => undefined);
    throw storageError(e, `publish to ${publicDir}`) ?? e; // withRun records the run as failed with this message
  }
}

/**
 * What a killed publish left half-written goes first: it is never `current`, and must not count
 * among the generations kept. Housekeeping like pruning: a failure here is logged only.
 */
async function removeUnsealed(ctx: Context, publicDir: string): Promise<void> {
  const partial = await removeUnsealedGenerations(publicDir).catch((e: unknown) => {
    ctx.log.warn(`publish: removing unsealed generations failed: ${(e as Error)?.message ?? String(e)}`);
    return [] as string[];
  });
  if (partial.length)
    ctx.log.warn(`publish: removed ${partial.length} unsealed generation(s) left by an interrupted publish: ${partial.join(', ')}`);
}

/**
 * Old generations go while this one is written (their removal is mostly the kernel's and rm(1)'s
 * time: generation.ts removeTree). The new generation counts among the `keep` newest, as it would
 * after the switch, and is protected; `current` is never pruned. Awaited before the switch, which
 * must not race the removal of stray temporary links. Housekeeping: a failure is logged only. A
 * publish that fails after this has still pruned (never below keep − 1).
 */
function pruneInBackground(ctx: Context, publicDir: string, keep: number, generation: string): Promise<string[]> {
  return pruneGenerations(publicDir, keep, [generation]).catch((e: unknown) => {
    ctx.log.warn(`publish: pruning old generations failed: ${(e as Error)?.message ?? String(e)}`);
    return [] as string[];
  });
}

/**
 * The bucket bits, the fingerprint salt, the previous generation to share from and the render
 * instants. Incremental unless --full: services whose inputs did not change since the generation
 * `current` points to share its files (docs/notes/incremental-publish.md).
 */
async function readInputs(
  ctx: Context,
  store: Store,
  opts: PublishOptions,
  step: Step,
  at: Pick<Inputs, 'now' | 'publicDir' | 'generation' | 'genDir'>,
): Promise<Inputs> {
  const { now, publicDir } = at;
  const pages = opts.pages !== false;
  const baseUrl = publicBaseUrl(ctx.config);
  // Index bucket bits from the number of services publish stages (every row of `services`).
  const bucketBits = await step('bucket-bits', async () =>
    indexBucketBits(Number((await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM services'))[0]?.n ?? 0)),
  );
  const salt = await step('salt', async () =>
    fingerprintSalt({
      scheduleTier: scheduleTierServed(now),
      pages,
      baseUrl,
      engine: String((await store.all<{ v: string }>('SELECT version() AS v'))[0]?.v ?? ''),
      bucketBits,
    }),
  );
  const prevId = opts.full ? null : await currentGeneration(publicDir);
  const previous = await step('previous', () =>
    previousGeneration(prevId ? generationDir(publicDir, prevId) : null, salt, dayRange(now, 1)[0]!),
  );
  const render = { generatedAt: now.toISOString(), dataAsOf: await step('data-as-of', () => dataAsOf(store, now)) };
  return { ...at, pages, baseUrl, bucketBits, salt, prevId, previous, render };
}

/**
 * The services, shared with the previous generation where they did not change. A previous
 * generation found unusable (PreviousGenerationUnusable: a file missing or out of step with its
 * fingerprints) must not stop publishing: the folder starts again and every service is rendered
 * (`fellBack`). Any other failure (a full disk, a permission, the database) fails the publish.
 */
async function servicesOrFullRender(
  ctx: Context,
  store: Store,
  opts: PublishOptions,
  inputs: Inputs,
): Promise<ServicesResult & { fellBack: boolean }> {
  const { genDir, baseUrl } = inputs;
  // A rendered service's page is written with its detail file (no second read of the file).
  const page = inputs.pages ? (d: ServiceDetailFile) => staticServicePage(d, baseUrl) : undefined;
  const write = (previous: PreviousGeneration | null) =>
    writeServices(store, genDir, inputs.now, ctx.log, {
      ...opts,
      render: inputs.render,
      salt: inputs.salt,
      bucketBits: inputs.bucketBits,
      previous,
      ...(page ? { page } : {}),
    });
  try {
    return { ...(await write(inputs.previous)), fellBack: false };
  } catch (e) {
    if (!inputs.previous || !(e instanceof PreviousGenerationUnusable)) throw e;
    ctx.log.warn(`publish: sharing with generation ${inputs.prevId} failed (${e.message}); rendering every service`);
    await removeTree(genDir);
    await createGenerationDir(inputs.publicDir, inputs.generation);
    return { ...(await write(null)), fellBack: true };
  }
}

/** Every file but the services, the pages, the manifest and the seal; the manifest's counts. */
async function writeResources(
  ctx: Context,
  store: Store,
  inputs: Inputs,
  services: ServicesResult,
  run: Run,
  key: SigningKey,
  step: Step,
): Promise<Manifest['counts']> {
  const { genDir, now, generation } = inputs;
  await step('stats', () => writeStats(store, genDir, now));
  await step('status', () => writeStatus(store, genDir, now, ctx.config.cycle.everyMinutes, run.id));
  await step('health', () => writeHealth(store, genDir, now, generation, key.info));
  await step('roadmap', () => writeRoadmap(ctx.paths.roadmap, genDir));
  await step('fields', () => writeFieldsAndOpenApi(genDir, now));
  const changes = await step('changes', () => writeChanges(store, genDir, now));
  const reports = await step('reports', () => writeReports(store, genDir, now));
  // What the server says in the receipt of a repeated outcome report.
  await step('moderation', () => writeModerationIndex(store, genDir, now));
  await step('discovery', () => writeDiscovery(genDir, { baseUrl: inputs.baseUrl, registryName: ctx.config.serve.registryName }));
  return { services: services.services, in_directory: services.inDirectory, details: services.details, reports, changes };
}

/**
 * The pages (part of the product: only an explicit `pages: false` leaves them out); every file
 * shared with the previous generation. An unchanged service's page is the previous generation's
 * (same detail, same salt), linked with its detail file; a rendered one's was written with its
 * detail file; an unchanged one whose page could not be linked is rendered here from its detail.
 */
async function writeServicePages(inputs: Inputs, services: ServicesResult, step: Step): Promise<string[]> {
  const linked = [...services.linked];
  if (!inputs.pages) return linked;
  const linkedPages = new Set(services.pagesLinked);
  for (const id of services.pagesLinked) linked.push(`services/${id}.html`);
  const only = services.unchanged.filter((id) => !linkedPages.has(id));
  const { genDir, now, baseUrl } = inputs;
  await step('pages', async () => {
    const directory = await staticDirectoryList(genDir, now, inputs.render.dataAsOf, services.listed);
    await writePages(genDir, { generatedAt: now, baseUrl, only, directory });
  });
  return linked;
}

/** `manifest.json`, the last body before the seal. */
async function writeManifest(store: Store, inputs: Inputs, counts: Manifest['counts']): Promise<void> {
  await writeJson(join(inputs.genDir, 'manifest.json'), Manifest, {
    generation: inputs.generation,
    generated_at: inputs.now.toISOString(),
    rule: LISTING_CRITERIA_RULE,
    api_version: API_VERSION,
    counts,
    pages: inputs.pages,
    // The files carry only changed-scope instants (site/contract/directory-evaluated.ts).
    directory_full_evaluation_at: (await lastFullEvaluation(store))?.toISOString() ?? null,
  });
}

/**
 * The seal reads neither the files linked from the previous generation (their sealed lines) nor
 * the service files written above (hashed as they were written). The previous list is read here,
 * not while DuckDB stages: on two cores that only slowed the staging down.
 */
async function seal(inputs: Inputs, services: ServicesResult, linked: readonly string[], key: SigningKey): Promise<SealResult> {
  const { previous, genDir, generation, now } = inputs;
  const fromPrevious = previous && linked.length ? await sealedLineFinder(previous.dir) : () => undefined;
  const isLinked = new Set(linked);
  // The seal hands its paths sorted by comparePaths, the order the previous list's finder needs.
  const known = (sortedPaths: readonly string[]): (string | undefined)[] =>
    sortedPaths.map((path) => {
      const h = services.written.get(path);
      if (h) return entryLine({ path, ...h });
      return isLinked.has(path) ? fromPrevious(path) : undefined;
    });
  return sealGeneration(genDir, { generation, now, key, known });
}
