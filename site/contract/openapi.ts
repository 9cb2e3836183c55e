import { API_STATUS } from './common.ts';
import { z } from 'zod';
import { API_VERSION, REPORT_ID_PATTERN, SCHEDULE_TIER_SUNSET, SERVICE_ID_PATTERN } from './common.ts';
import { COMPONENTS, INHERITS } from './components.ts';
import { fieldDoc } from './field-docs.ts';
import {
  CHANGES_QUERY_PARAMS,
  FeedbackRequestSchema,
  KeyRequestSchema,
  OutcomeReportSchema,
  SERVICES_QUERY_PARAMS,
  type ParamSpec,
} from './requests.ts';

/**
 * The OpenAPI 3.1 document of the public API (operations, responses and errors), generated from the contract
 * schemas with zod 4's `z.toJSONSchema` (JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
 * Member descriptions come from the field dictionary table; parameters from requests.ts's tables.
 * Served by `atlas serve` at /openapi.json and written by publish as `openapi.json`.
 */
type Json = Record<string, unknown>;

const REQUEST_BODIES = {
  KeyRequest: KeyRequestSchema,
  OutcomeReport: OutcomeReportSchema,
  FeedbackRequest: FeedbackRequestSchema,
} as const;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries({ ...COMPONENTS, ...REQUEST_BODIES })) registry.add(schema, { id: name });
  const out = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' }) as {
    schemas: Record<string, Json>;
  };
  for (const [name, schema] of Object.entries(out.schemas)) {
    delete schema.$schema;
    delete schema.$id;
    if (name in COMPONENTS) describe(name, schema, '');
  }
  linkReportBody(out.schemas);
  return out.schemas;
}

/**
 * `Report.report` stays an open object (a frozen snapshot is served as frozen, even when later weeks gain
 * members), but its members are ReportBody's: say so in the schema itself, so that tools show them and the
 * ReportBody component is referenced rather than left orphaned.
 */
function linkReportBody(schemas: Record<string, Json>): void {
  const props = schemas.Report?.properties as Record<string, Json> | undefined;
  if (!props?.report || !schemas.ReportBody) return;
  const { description, ...open } = props.report;
  props.report = { description, anyOf: [ref('ReportBody'), open] };
}

/** Attach field-dictionary definitions as `description` of each property (recursing into inline objects). */
function describe(name: string, schema: Json, prefix: string): void {
  const props = schema.properties as Record<string, Json> | undefined;
  if (!props) return;
  for (const [key, prop] of Object.entries(props)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const parent = INHERITS[name];
    const doc = fieldDoc(name, path) ?? (parent ? fieldDoc(parent, path) : undefined);
    if (doc) {
      const extra = [doc.unit ? `Unit: ${doc.unit}.` : '', doc.window ? `Window: ${doc.window}.` : '', `Source: ${doc.source}.`]
        .filter(Boolean)
        .join(' ');
      prop.description = `${doc.definition} ${extra}`;
    }
    for (const inner of [prop, ...((prop.anyOf as Json[] | undefined) ?? [])]) {
      if (inner.type === 'object') describe(name, inner, path);
      const items = inner.items as Json | undefined;
      if (items?.type === 'object') describe(name, items, `${path}[]`);
    }
  }
}

function parameter(p: ParamSpec, where: 'query' | 'path' = 'query'): Json {
  const { name, description, ...rest } = p as ParamSpec & Record<string, unknown>;
  const schema: Json = {};
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) schema[k] = Array.isArray(v) ? [...v] : v;
  return { name, in: where, required: where === 'path', description, schema };
}

const json = (schemaName: string, description: string, headers: Json = {}): Json => ({
  description,
  headers: { 'X-API-Status': { $ref: '#/components/headers/XApiStatus' }, ...headers },
  content: { 'application/json': { schema: ref(schemaName) } },
});

const error = (description: string, headers: Json = {}) => json('Error', description, headers);
const rateLimited = (description: string) => error(description, { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } });
/** Node's HTTP server answers a request it cannot parse (400) or whose headers are too large (431) itself, with no body. */
const MALFORMED: Json = { description: 'Malformed request refused by the HTTP server before routing (400, 431); no body.' };

function paths(): Json {
  const servicesParams = SERVICES_QUERY_PARAMS.map((p) => parameter(p));
  const changesParams = CHANGES_QUERY_PARAMS.map((p) => parameter(p));
  const deprecation = {
    Deprecation: { description: 'Sent while evidence.schedule_tier (old name of check_interval) is served.', schema: { type: 'string' } },
    Sunset: { description: `Day from which evidence.schedule_tier is dropped (${SCHEDULE_TIER_SUNSET}).`, schema: { type: 'string' } },
  };
  return {
    '/api/v1/services': {
      get: {
        operationId: 'searchServices',
        summary: 'Search the directory (scope=directory, default) or the whole index',
        parameters: servicesParams,
        responses: {
          200: json('ServiceList', 'Matches (total 0, items [] and a hint when nothing matched).', deprecation),
          400: error('A query parameter is invalid or out of bounds (the message names it).'),
          429: rateLimited('Rate limited.'),
        },
      },
    },
    '/api/v1/services/{id}': {
      get: {
        operationId: 'getService',
        summary: 'One service: evidence, claims with sources, recent checks; with a key also referral_id',
        parameters: [
          { name: 'id', in: 'path', required: true, description: 'Service id.', schema: { type: 'string', pattern: SERVICE_ID_PATTERN } },
        ],
        security: [{}, { bearerKey: [] }, { headerKey: [] }],
        responses: {
          200: json('ServiceDetail', 'The service.', deprecation),
          404: error('Unknown service (or malformed id).'),
          429: rateLimited('Rate limited.'),
        },
      },
    },
    '/api/v1/stats': {
      get: {
        operationId: 'getStats',
        summary: 'Counts with windows',
        responses: { 200: json('Stats', 'Counts.'), 429: rateLimited('Rate limited.') },
      },
    },
    '/api/v1/keys': {
      post: {
        operationId: 'createKey',
        summary: 'Issue a free API key (shown once)',
        requestBody: { required: false, content: { 'application/json': { schema: ref('KeyRequest') } } },
        responses: {
          201: json('KeyCreated', 'The key, shown once, and the limits in force.'),
          400: error('Invalid body.'),
          429: rateLimited('Daily key limit reached (3 per address per day) or rate limited.'),
        },
      },
    },
    '/api/v1/outcomes': {
      post: {
        operationId: 'reportOutcome',
        summary: 'Report the outcome of a call (unverified; moderated; never part of evidence)',
        security: [{ bearerKey: [] }, { headerKey: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('OutcomeReport') } } },
        responses: {
          200: json('OutcomeReceipt', 'Duplicate of an earlier report with the same idempotency_key: the first receipt.'),
          201: json('OutcomeReceipt', 'Report received (pending moderation).'),
          400: error('Invalid report.'),
          401: error('API key missing or unknown.'),
          429: rateLimited('Rate limited.'),
        },
      },
    },
    '/api/v1/reports': {
      get: {
        operationId: 'listReports',
        summary: 'Published weekly reports, newest first',
        responses: { 200: json('ReportList', 'Reports.'), 429: rateLimited('Rate limited.') },
      },
    },
    '/api/v1/reports/{id}': {
      get: {
        operationId: 'getReport',
        summary: 'A weekly report and its corrections; current gives provisional week-to-date figures',
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The Monday starting the week (YYYY-MM-DD), or current.',
            schema: { type: 'string', pattern: REPORT_ID_PATTERN },
          },
        ],
        responses: { 200: json('Report', 'The report.'), 404: error('No such report.'), 429: rateLimited('Rate limited.') },
      },
    },
    '/api/v1/status': {
      get: {
        operationId: 'getStatus',
        summary: "The service's own runs, missed runs and evidence freshness",
        responses: { 200: json('Status', 'Status.'), 429: rateLimited('Rate limited.') },
      },
    },
    '/api/v1/changes': {
      get: {
        operationId: 'listChanges',
        summary: "Changes to reviewed services' documentation, newest first",
        parameters: changesParams,
        responses: {
          200: json('ChangeList', 'Changes.'),
          400: error('A query parameter is invalid or out of bounds.'),
          429: rateLimited('Rate limited.'),
        },
      },
    },
    '/api/v1/feedback': {
      post: {
        operationId: 'sendFeedback',
        summary: 'Send feedback (no key needed)',
        requestBody: { required: true, content: { 'application/json': { schema: ref('FeedbackRequest') } } },
        responses: {
          201: json('FeedbackReceipt', 'Feedback received.'),
          400: error('Invalid input.'),
          429: rateLimited('Daily feedback limit reached (10 per address per day) or rate limited.'),
        },
      },
    },
    '/api/v1/roadmap': {
      get: {
        operationId: 'getRoadmap',
        summary: 'Roadmap (planned, not promised, no dates)',
        responses: { 200: json('Roadmap', 'Roadmap.'), 429: rateLimited('Rate limited.') },
      },
    },
    '/api/v1/fields': {
      get: {
        operationId: 'getFields',
        summary: 'Field dictionary',
        responses: { 200: json('Fields', 'Every field with definition, unit, window and source.'), 429: rateLimited('Rate limited.') },
      },
    },
    '/healthz': {
      get: {
        operationId: 'getHealth',
        summary: 'Service health and the latest monitoring run',
        // Never rate limited (health checks must not get 429); the only 4xx is the HTTP server's own
        // refusal of a malformed request, before any route runs.
        responses: { 200: json('Health', 'Health.'), '4XX': MALFORMED },
      },
    },
  };
}

let cached: Json | undefined;

/** The document (built once per process; callers must not mutate it). */
export function buildOpenApi(): Json {
  cached ??= {
    openapi: '3.1.0',
    info: {
      title: 'Atlas directory service API',
      version: API_VERSION,
      // The repository's license (package.json "license").
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Unstable preview: data and fields can change or break without notice. Every response carries the body member api_status ("preview") and the header X-API-Status. Reading needs no key; a free key raises rate limits and enables outcome reports. The same tools are offered over MCP at /mcp.',
    },
    servers: [{ url: '/' }],
    security: [{}, { bearerKey: [] }, { headerKey: [] }],
    paths: paths(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
        headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      headers: {
        XApiStatus: { description: 'Always "preview".', schema: { type: 'string', const: API_STATUS } },
        RetryAfter: { description: 'Seconds until a new request may succeed.', schema: { type: 'integer', minimum: 0 } },
      },
    },
  };
  return cached;
}
