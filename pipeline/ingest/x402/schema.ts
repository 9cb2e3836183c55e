import { z } from 'zod';

/**
 * The x402 discovery registry ("Bazaar") list format (docs/notes/ingest.md):
 * `GET …/discovery/resources?limit=L&offset=O` (or `&cursor=C`) →
 * `{ x402Version, items: [...], pagination: { limit, offset, total, nextCursor? } }`.
 *
 * Two levels of strictness, on purpose:
 * - the PAGE must have this shape, or the whole source fails and nothing is stored (a registry that
 *   changed format must not silently empty or corrupt the index);
 * - an ITEM that lacks a usable `resource` is skipped and counted (registries hold messy rows; one
 *   bad row must not block the other 15k). Unknown keys are kept (the raw item is stored).
 */
const Count = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);

export const X402PaginationSchema = z
  .looseObject({
    limit: Count.nullish(),
    offset: Count.nullish(),
    total: Count.nullish(),
    /** Cursor paging (newer catalogs): the opaque cursor of the next page; absent or null on the last. */
    nextCursor: z.string().nullish(),
  })
  .nullish();

export const X402PageSchema = z.looseObject({
  x402Version: z.union([z.number(), z.string()]).nullish(),
  items: z.array(z.record(z.string(), z.unknown())),
  pagination: X402PaginationSchema,
  /** Some cursor-paged answers carry the next cursor at the top level. */
  nextCursor: z.string().nullish(),
});
export type X402Page = z.infer<typeof X402PageSchema>;

/**
 * A whole-registry dump as crawlers save it: `{ resources: [items as the registry returned them],
 * total?, crawledAt?, partial? }`. The items are checked one by one like a page's; `partial: true`
 * (the crawler stopped early) makes the sweep incomplete, so nothing is delisted on its evidence.
 */
export const X402DumpSchema = z.looseObject({
  resources: z.array(z.unknown()),
  x402Version: z.union([z.number(), z.string()]).nullish(),
  partial: z.boolean().nullish(),
});
export type X402Dump = z.infer<typeof X402DumpSchema>;

/** One accepts[] entry: v1 (`maxAmountRequired`, network name) or v2 (`amount`, CAIP-2). */
export const X402AcceptSchema = z.looseObject({
  scheme: z.string().nullish(),
  network: z.string(),
  amount: z.union([z.string(), z.number()]).nullish(),
  maxAmountRequired: z.union([z.string(), z.number()]).nullish(),
  asset: z.string().nullish(),
  description: z.unknown().optional(),
  outputSchema: z.unknown().optional(),
});
export type X402Accept = z.infer<typeof X402AcceptSchema>;

export const X402ItemSchema = z.looseObject({
  /** A URL string; some v2-shaped rows carry the payment request's `{ url, serviceName?, tags?, … }` object. */
  resource: z.union([z.string().min(1), z.looseObject({ url: z.string().min(1) })]),
  /** `http` (or absent), `mcp`; anything else is an unknown kind (skipped, counted), not a malformed item. */
  type: z.unknown().optional(),
  x402Version: z.union([z.number(), z.string()]).nullish(),
  accepts: z.array(z.unknown()).nullish(),
  lastUpdated: z.union([z.string(), z.number()]).nullish(),
  description: z.unknown().optional(),
  serviceName: z.unknown().optional(),
  label: z.unknown().optional(),
  tags: z.unknown().optional(),
  extensions: z.unknown().optional(),
  quality: z
    .looseObject({
      l30DaysTotalCalls: z.unknown().optional(),
      l30DaysUniquePayers: z.unknown().optional(),
      lastCalledAt: z.unknown().optional(),
    })
    .nullish(),
});
export type X402Item = z.infer<typeof X402ItemSchema>;
