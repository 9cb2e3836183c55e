import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import {
  createKey,
  getFields,
  getHealth,
  getReport,
  getRoadmap,
  getService,
  getStats,
  getStatus,
  listChanges,
  listReports,
  reportOutcome,
  searchServices,
  sendFeedback,
} from '../operations/index.ts';
import {
  CreateKeyInput,
  ListChangesInput,
  NoInput,
  ReportIdInput,
  ReportOutcomeInput,
  SearchServicesInput,
  SendFeedbackInput,
  ServiceIdInput,
} from './input-schemas.ts';
import {
  ChangeListOutput,
  FeedbackReceiptOutput,
  FieldsOutput,
  GetServiceOutput,
  HealthOutput,
  KeyCreatedOutput,
  OutcomeReceiptOutput,
  ReportListOutput,
  ReportOutput,
  RoadmapOutput,
  SearchServicesOutput,
  StatsOutput,
  StatusOutput,
} from './output-schemas.ts';

/** What a tool knows about the HTTP request that carried it (per request: the server is stateless). */
export interface RequestInfo {
  /** From `Authorization: Bearer` or `X-API-Key`, as for the HTTP API. */
  key: string | null;
  /** Client address for per-address limits (same rule as the HTTP routes). */
  address: string;
}

export interface ToolAnswer {
  value: unknown;
  meta?: Record<string, unknown>;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** The contract schema of a successful result (output-schemas.ts); declared as the tool's outputSchema. */
  output: z.ZodObject;
  readOnly: boolean;
  run(deps: AppDeps, args: Record<string, unknown>, req: RequestInfo): Promise<ToolAnswer>;
}

const answer = async (p: Promise<unknown>): Promise<ToolAnswer> => ({ value: await p });

/** Drop absent members so an MCP call and an HTTP call with the same parameters are the same input. */
const present = (args: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));

/**
 * One tool per API operation (and /healthz), each calling the operation the HTTP route calls
 * (serve/operations), so validation, limits and errors are the same, and each declaring the
 * contract's response schema as its output schema.
 */
export const TOOLS: readonly ToolDef[] = [
  {
    name: 'search_services',
    title: 'Search services',
    description:
      'Search the directory of paid x402 API endpoints, remote MCP servers and task marketplaces (GET /api/v1/services). Every parameter of the HTTP API; scope=directory (default) shows only services meeting the listing criteria, scope=index everything tracked. Evidence is measured by Atlas; not a rating.',
    input: SearchServicesInput,
    output: SearchServicesOutput,
    readOnly: true,
    run: (deps, args) => answer(searchServices(deps, present(args))),
  },
  {
    name: 'get_service',
    title: 'Get one service',
    description:
      'One service with its evidence, claims and recent checks (GET /api/v1/services/{id}). With an API key on the MCP request, also a referral_id usable in report_outcome within 7 days.',
    input: ServiceIdInput,
    output: GetServiceOutput,
    readOnly: true,
    run: (deps, args, req) => answer(getService(deps, String(args.id), req.key)),
  },
  {
    name: 'get_stats',
    title: 'Directory statistics',
    description: 'Counts with windows, including checks in the last 24 hours by kind (GET /api/v1/stats).',
    input: NoInput,
    output: StatsOutput,
    readOnly: true,
    run: (deps) => answer(getStats(deps)),
  },
  {
    name: 'get_status',
    title: "Atlas's own status",
    description: "The service's own scheduled runs, missed runs and evidence freshness (GET /api/v1/status).",
    input: NoInput,
    output: StatusOutput,
    readOnly: true,
    run: (deps) => answer(getStatus(deps)),
  },
  {
    name: 'get_health',
    title: 'Service health',
    description:
      'Health of the service and its latest monitoring run (GET /healthz): ok, degraded (latest probe run failed or older than two hours) or no_data.',
    input: NoInput,
    output: HealthOutput,
    readOnly: true,
    run: (deps) => answer(getHealth(deps)),
  },
  {
    name: 'list_reports',
    title: 'Weekly reports',
    description: 'Published weekly reports, newest first (GET /api/v1/reports).',
    input: NoInput,
    output: ReportListOutput,
    readOnly: true,
    run: (deps) => answer(listReports(deps)),
  },
  {
    name: 'get_report',
    title: 'One weekly report',
    description:
      'A frozen weekly report with its corrections, by the Monday starting the week (YYYY-MM-DD), or id current for provisional week-to-date figures (GET /api/v1/reports/{id}).',
    input: ReportIdInput,
    output: ReportOutput,
    readOnly: true,
    run: (deps, args) => answer(getReport(deps, String(args.id))),
  },
  {
    name: 'list_changes',
    title: 'Documentation changes',
    description:
      "Detected changes to reviewed services' documentation, newest first (GET /api/v1/changes); needs_review marks changes touching prices, networks, endpoint paths, auth or deprecation.",
    input: ListChangesInput,
    output: ChangeListOutput,
    readOnly: true,
    run: (deps, args) => answer(listChanges(deps, present(args))),
  },
  {
    name: 'get_roadmap',
    title: 'Roadmap',
    description: 'What is measured today and what is planned (not promised, no dates) (GET /api/v1/roadmap).',
    input: NoInput,
    output: RoadmapOutput,
    readOnly: true,
    run: (deps) => answer(getRoadmap(deps)),
  },
  {
    name: 'get_fields',
    title: 'Field dictionary',
    description: 'Exact definition, unit, window and source of every field (GET /api/v1/fields).',
    input: NoInput,
    output: FieldsOutput,
    readOnly: true,
    run: (deps) => answer(getFields(deps)),
  },
  {
    name: 'create_key',
    title: 'Create a free API key',
    description: 'Issue a free API key (POST /api/v1/keys); the key value is shown once. At most 3 new keys per address per day.',
    input: CreateKeyInput,
    output: KeyCreatedOutput,
    readOnly: false,
    run: (deps, args, req) => answer(createKey(deps, present(args), req.address)),
  },
  {
    name: 'send_feedback',
    title: 'Send feedback',
    description: 'Feedback such as a missing service or metric (POST /api/v1/feedback). No key needed; 10 per address per day.',
    input: SendFeedbackInput,
    output: FeedbackReceiptOutput,
    readOnly: false,
    run: (deps, args, req) => answer(sendFeedback(deps, present(args), req.address)),
  },
  {
    name: 'report_outcome',
    title: 'Report an outcome',
    description:
      'Report the outcome of using a service (POST /api/v1/outcomes). Requires an API key on the MCP HTTP request (Authorization: Bearer <key> or X-API-Key). Attach the seller\'s signed x402 receipt (the settlement response\'s extensions["offer-receipt"].info.receipt) as `receipt` to have the report counted as verified once Atlas has checked it. Reports are moderated and never turned into rates or scores.',
    input: ReportOutcomeInput,
    output: OutcomeReceiptOutput,
    readOnly: false,
    run: async (deps, args, req) => {
      const r = await reportOutcome(deps, present(args), req.key);
      return { value: r.body, meta: { 'atlas/http_status': r.status, 'atlas/duplicate': r.status === 200 } };
    },
  },
];
