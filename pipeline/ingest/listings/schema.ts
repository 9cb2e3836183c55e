import { z } from 'zod';
import { OperationKind, ServiceType } from '../../../site/contract/common.ts';
import { REVIEWED_ID_RE } from '../ids.ts';
import { HTTP_METHODS } from '../url.ts';

/**
 * A reviewed listing file (data/listings/<slug>.json, one service per file), written by us from the
 * operator's own public material. Strict: unknown keys are errors, so a typo in a field name is
 * caught instead of silently ignored.
 *
 * Every statement the listing makes about the service carries where it was checked and when:
 * - `sources` covers the listing's own fields: who runs it (`operator`), the primary operation's URL
 *   and method (`endpoint`), the documentation pages (`documentation`);
 * - `claims` holds stated facts that are not otherwise fields (`price_usd`, `networks`, `access`),
 *   each `{ value, source_url, checked_at }`.
 * An active listing must source its operator, its endpoint and (when it has any) its documentation.
 * A listing that no public source confirms, or whose service has closed, carries `inactive_because`
 * and is inactive: it is kept for its history but never presented as reviewed fact (docs/notes/ingest.md).
 */
const HttpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain }).max(2048);

const Tag = z.string().regex(/^[a-z0-9-]{1,32}$/, 'tags are lowercase letters, digits and hyphens (1–32)');

/** Where a statement was checked: the public page it was read on and the UTC day of the check. */
const sourceFields = {
  /** The public page the statement was checked against (operator docs, README, registry record). */
  source_url: HttpUrl,
  /** The UTC day (YYYY-MM-DD) the statement was last checked against source_url. */
  checked_at: z.iso.date(),
  /** Optional clarification, e.g. "per 1k tokens; the cheapest endpoint". */
  note: z.string().max(300).optional(),
};
export const ListingSourceSchema = z.strictObject(sourceFields);
export type ListingSource = z.infer<typeof ListingSourceSchema>;

function sourced<T extends z.ZodType>(value: T) {
  return z.strictObject({ value, ...sourceFields });
}

export const ListingOperationSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'operation ids are lowercase letters, digits, _ and - (max 32)'),
  kind: OperationKind,
  primary: z.boolean().default(false),
  url: HttpUrl,
  method: z.enum(HTTP_METHODS).default('GET'),
  /** HTTP statuses that pass (reviewed/1): usually [402] for an x402 endpoint, [200] for a page. */
  expected_statuses: z.array(z.number().int().min(100).max(599)).min(1).max(10),
  /**
   * Stated in the file so a reader sees the schedule, and must equal what schedule/1 fixes for a
   * reviewed service: every call hourly, documentation daily. Any other value refuses the file.
   */
  interval: z.enum(['hourly', 'daily']),
});

export const ListingSchema = z
  .strictObject({
    id: z.string().regex(REVIEWED_ID_RE, 'id must be svc_<slug> (lowercase letters, digits, _ and -)'),
    name: z.string().trim().min(1).max(120),
    type: ServiceType,
    /** Defaults from type: api_endpoint → x402, mcp_server → mcp, task_marketplace → none. */
    protocol: z.enum(['x402', 'mcp', 'none']).optional(),
    operator: z.string().trim().min(1).max(120),
    category: z.string().trim().min(1).max(60),
    tags: z.array(Tag).max(20).default([]),
    description: z.string().trim().max(500).optional(),
    operations: z.array(ListingOperationSchema).min(1).max(10),
    documentation_urls: z.array(HttpUrl).max(10).default([]),
    /** Where the listing's own fields were checked (see above). */
    sources: z
      .strictObject({
        operator: ListingSourceSchema.optional(),
        endpoint: ListingSourceSchema.optional(),
        documentation: ListingSourceSchema.optional(),
      })
      .default({}),
    claims: z
      .strictObject({
        price_usd: sourced(z.number().nonnegative().nullable()).optional(),
        networks: sourced(z.array(z.string().trim().min(1).max(100)).min(1).max(20)).optional(),
        /** How a caller gets access: "no authentication", "OAuth 2.1 or an API key", "x402 payment, no API key". */
        access: sourced(z.string().trim().min(1).max(200)).optional(),
      })
      .default({}),
    /** When the check was approved: monitoring_since of a reviewed service. */
    approved_at: z.iso.datetime({ offset: true }),
    active: z.boolean().default(true),
    /** Why the listing is inactive: its claims could not be confirmed, or the service closed. */
    inactive_because: z
      .strictObject({
        reason: z.enum(['unconfirmed', 'closed']),
        note: z.string().trim().min(1).max(500),
        checked_at: z.iso.date(),
        source_url: HttpUrl.optional(),
      })
      .optional(),
  })
  .superRefine((l, ctx) => {
    const primaries = l.operations.map((o, i) => ({ o, i })).filter(({ o }) => o.primary);
    if (primaries.length !== 1) {
      ctx.addIssue({ code: 'custom', path: ['operations'], message: `exactly one operation must be primary (found ${primaries.length})` });
    }
    for (const { o, i } of primaries) {
      if (o.kind !== 'call') ctx.addIssue({ code: 'custom', path: ['operations', i, 'kind'], message: 'the primary operation is a call' });
    }
    l.operations.forEach((o, i) => {
      // schedule/1 fixes a reviewed service's intervals; a file that states another is refused rather
      // than silently re-scheduled, so the file never says something the published schedule does not.
      const fixed = o.kind === 'documentation' ? 'daily' : 'hourly';
      if (o.interval !== fixed) {
        const what = o.kind === 'documentation' ? 'documentation is checked daily' : 'every call of a reviewed service is checked hourly';
        ctx.addIssue({ code: 'custom', path: ['operations', i, 'interval'], message: `${what} (schedule/1, fixed)` });
      }
      if (l.operations.findIndex((p) => p.id === o.id) !== i) {
        ctx.addIssue({ code: 'custom', path: ['operations', i, 'id'], message: `duplicate operation id ${o.id}` });
      }
    });
    const protocol = l.protocol ?? defaultProtocol(l.type);
    if (l.type === 'mcp_server' && protocol !== 'mcp')
      ctx.addIssue({ code: 'custom', path: ['protocol'], message: 'an mcp_server uses protocol mcp' });
    if (l.type === 'api_endpoint' && protocol !== 'x402')
      ctx.addIssue({ code: 'custom', path: ['protocol'], message: 'an api_endpoint is paid with x402' });
    if (l.inactive_because !== undefined && l.active) {
      ctx.addIssue({
        code: 'custom',
        path: ['active'],
        message: `a listing inactive because ${l.inactive_because.reason} has active: false`,
      });
    }
    if (l.active) {
      const needed: Array<keyof typeof l.sources> = ['operator', 'endpoint'];
      if (l.documentation_urls.length || l.operations.some((o) => o.kind === 'documentation')) needed.push('documentation');
      for (const k of needed) {
        if (l.sources[k] === undefined) {
          ctx.addIssue({ code: 'custom', path: ['sources', k], message: `an active listing states where its ${k} was checked` });
        }
      }
    }
    // An inactive listing states nothing as fact, so only an active one must state its networks.
    if (protocol === 'x402' && l.active && l.claims.networks === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['claims', 'networks'],
        message: 'an x402 listing states the operator’s payment networks (with a source)',
      });
    }
  });
export type Listing = z.infer<typeof ListingSchema>;

export function defaultProtocol(type: Listing['type']): 'x402' | 'mcp' | 'none' {
  return type === 'api_endpoint' ? 'x402' : type === 'mcp_server' ? 'mcp' : 'none';
}

export const INTERVAL_HOURS = { hourly: 1, daily: 24 } as const;
