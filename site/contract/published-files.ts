import { z } from 'zod';
import { API_VERSION, REPORT_ID_PATTERN, SERVICE_ID_PATTERN } from './common.ts';
import { ChangeList } from './changes.ts';
import { Fields } from './fields.ts';
import { Health } from './health.ts';
import { IndexRecordFile, IndexBuckets } from './index-record.ts';
import { Manifest } from './manifest.ts';
import { ModerationIndex } from './moderation.ts';
import { Report, ReportList } from './reports.ts';
import { Roadmap } from './roadmap.ts';
import { RunLog } from './run-log.ts';
import { ServiceDetailFile } from './service-detail.ts';
import { Checksums, SigningKeyInfo } from './signing.ts';
import { Stats } from './stats.ts';
import { Status } from './status.ts';

/**
 * `server.json`: Atlas's own entry in the MCP registry's format (site/discovery/server-json.ts builds
 * it; the registry's schema is vendored with its test). Only the members Atlas writes.
 */
export const ServerJsonFile = z.strictObject({
  $schema: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string().max(100),
  version: z.string(),
  websiteUrl: z.string(),
  remotes: z.array(z.strictObject({ type: z.literal('streamable-http'), url: z.string() })),
});
export type ServerJsonFile = z.infer<typeof ServerJsonFile>;

/**
 * `openapi.json` (buildOpenApi, site/contract/openapi.ts) as a published file: an OpenAPI 3.1
 * document of this API version. Its body is generated from the schemas here; this checks only its
 * frame (the OpenAPI lint test checks the document itself).
 */
export const OpenApiFile = z.looseObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.looseObject({ title: z.string(), version: z.literal(API_VERSION) }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()) }),
});

/** One kind of JSON file of a generation: where it is, and the schema its bytes parse under as they are. */
export interface PublishedJsonKind {
  kind: string;
  /** Matches the generation-relative, `/`-separated path. */
  path: RegExp;
  schema: z.ZodType;
}

const ID = SERVICE_ID_PATTERN.slice(1, -1);
const REPORT = REPORT_ID_PATTERN.slice(1, -1);

/**
 * Every JSON file a generation holds, each with the schema it parses under when a plain static host
 * serves it byte for byte (docs/notes/publish.md, "Serving it statically"): the one mapping from path
 * to schema. A JSON file of a generation that no entry matches is a publishing bug (a test walks a
 * published tree over a plain static server and parses every file with its entry).
 *
 * Files are the API bodies of the same paths (`api/v1/<x>.json` is GET /api/v1/<x>, `healthz.json`
 * GET /healthz), except the single-service file, which holds the render-instant members as of its
 * own render (site/contract/service-file.ts) and the file-only `directory.scope`, and `changes.json`,
 * which holds every change of 90 days (the server filters). The index files, the run log, the
 * manifest, the key and the checksums are the generation's own documents.
 */
export const PUBLISHED_JSON_FILES: readonly PublishedJsonKind[] = [
  { kind: 'service', path: new RegExp(`^api/v1/services/${ID}\\.json$`), schema: ServiceDetailFile },
  { kind: 'index-bucket', path: /^index\/summaries\/[0-9a-f]+\.json$/, schema: z.array(IndexRecordFile) },
  { kind: 'index-layout', path: /^index\/buckets\.json$/, schema: IndexBuckets },
  { kind: 'moderation', path: /^index\/moderation\.json$/, schema: ModerationIndex },
  { kind: 'report', path: new RegExp(`^api/v1/reports/${REPORT}\\.json$`), schema: Report },
  { kind: 'reports', path: /^api\/v1\/reports\/index\.json$/, schema: ReportList },
  { kind: 'stats', path: /^api\/v1\/stats\.json$/, schema: Stats },
  { kind: 'status', path: /^api\/v1\/status\.json$/, schema: Status },
  { kind: 'roadmap', path: /^api\/v1\/roadmap\.json$/, schema: Roadmap },
  { kind: 'fields', path: /^api\/v1\/fields\.json$/, schema: Fields },
  { kind: 'changes', path: /^api\/v1\/changes\.json$/, schema: ChangeList },
  { kind: 'health', path: /^healthz\.json$/, schema: Health },
  { kind: 'run-log', path: /^run-log\.json$/, schema: RunLog },
  { kind: 'manifest', path: /^manifest\.json$/, schema: Manifest },
  { kind: 'checksums', path: /^checksums\.json$/, schema: Checksums },
  { kind: 'signing-key', path: /^atlas-signing-key\.json$/, schema: SigningKeyInfo },
  { kind: 'openapi', path: /^openapi\.json$/, schema: OpenApiFile },
  { kind: 'server-json', path: /^server\.json$/, schema: ServerJsonFile },
];

/** The entry for a generation-relative path, null when no published JSON file has that path. */
export function publishedJsonKind(path: string): PublishedJsonKind | null {
  return PUBLISHED_JSON_FILES.find((k) => k.path.test(path)) ?? null;
}
