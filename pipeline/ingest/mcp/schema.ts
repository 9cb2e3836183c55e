import { z } from 'zod';

/**
 * The MCP registry list format, `/v0.1/servers` (docs/reference.md):
 * `{ servers: [ { server: {...}, _meta: { "io.modelcontextprotocol.registry/official": { status,
 * statusChangedAt, publishedAt, updatedAt, isLatest } } } ], metadata: { nextCursor?, count } }`.
 * Older payloads spelled `next_cursor` and put the server fields at the top level of an entry.
 *
 * As with x402: the PAGE must have this shape or the source fails and nothing is stored; an ENTRY
 * without a server name is skipped and counted. Unknown keys are kept.
 */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

export const McpPageSchema = z.looseObject({
  servers: z.array(z.record(z.string(), z.unknown())),
  metadata: z
    .looseObject({
      nextCursor: z.string().nullish(),
      next_cursor: z.string().nullish(),
      count: z.number().nullish(),
    })
    .nullish(),
});
export type McpPage = z.infer<typeof McpPageSchema>;

export const McpVariableSchema = z.looseObject({
  default: z.unknown().optional(),
  value: z.unknown().optional(),
  choices: z.array(z.unknown()).nullish(),
});

export const McpRemoteSchema = z.looseObject({
  type: z.string().min(1),
  url: z.string().min(1),
  headers: z.unknown().optional(),
  variables: z.record(z.string(), z.unknown()).nullish(),
});

export const McpServerSchema = z.looseObject({
  name: z.string().min(1),
  title: z.unknown().optional(),
  description: z.unknown().optional(),
  version: z.unknown().optional(),
  websiteUrl: z.unknown().optional(),
  status: z.unknown().optional(),
  remotes: z.array(z.unknown()).nullish(),
});
export type McpServer = z.infer<typeof McpServerSchema>;

export const McpOfficialMetaSchema = z.looseObject({
  status: z.string().nullish(),
  statusChangedAt: z.unknown().optional(),
  publishedAt: z.unknown().optional(),
  updatedAt: z.unknown().optional(),
  isLatest: z.boolean().nullish(),
});
export type McpOfficialMeta = z.infer<typeof McpOfficialMetaSchema>;
