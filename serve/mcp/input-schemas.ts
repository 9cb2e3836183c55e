import { z } from 'zod';
import {
  CHANGES_QUERY_PARAMS,
  FeedbackRequestSchema,
  KeyRequestSchema,
  OutcomeReportSchema,
  SERVICES_QUERY_PARAMS,
  type ParamSpec,
} from '../../site/contract/requests.ts';
import { SERVICE_ID_MAX, SERVICE_ID_PATTERN } from '../../site/contract/common.ts';

/**
 * MCP tool input schemas, derived from the contract (site/contract/requests.ts) so the tools and the
 * HTTP routes cannot drift: query parameter tables become typed members with the same bounds (shown
 * to clients as JSON Schema), request bodies are the contract's body schemas. Objects are strict, like
 * the HTTP API (an unknown parameter is an error, never silently dropped). The operations validate
 * again underneath, so the rules that live there (e.g. failure_kind only with failure) apply too.
 */
function member(p: ParamSpec): z.ZodType {
  switch (p.type) {
    case 'string': {
      if (p.enum) return z.enum(p.enum as unknown as [string, ...string[]]).describe(p.description);
      let s = z.string();
      if (p.maxLength !== undefined) s = s.max(p.maxLength);
      if (p.pattern !== undefined) s = s.regex(new RegExp(p.pattern));
      return s.describe(p.description);
    }
    case 'boolean':
      return z.boolean().describe(p.description);
    case 'integer': {
      let n = z.number().int().min(p.minimum);
      if (p.maximum !== undefined) n = n.max(p.maximum);
      return n.describe(p.default !== undefined ? `${p.description} (default ${p.default})` : p.description);
    }
    case 'number': {
      let n = z.number().min(p.minimum);
      if (p.maximum !== undefined) n = n.max(p.maximum);
      return n.describe(p.description);
    }
  }
}

export function paramsSchema(params: readonly ParamSpec[]) {
  return z.strictObject(Object.fromEntries(params.map((p) => [p.name, member(p).optional()])));
}

export const SearchServicesInput = paramsSchema(SERVICES_QUERY_PARAMS);
export const ListChangesInput = paramsSchema(CHANGES_QUERY_PARAMS);

/** Ids are checked by the operation (a malformed id is not found, as over HTTP); only the length is bounded here. */
export const ServiceIdInput = z.strictObject({
  id: z.string().min(1).max(SERVICE_ID_MAX).describe(`service id, ${SERVICE_ID_PATTERN}`),
});
export const ReportIdInput = z.strictObject({
  id: z.string().min(1).max(40).describe('current, or the Monday (UTC) starting the week as YYYY-MM-DD'),
});
export const NoInput = z.strictObject({});

export { FeedbackRequestSchema as SendFeedbackInput, KeyRequestSchema as CreateKeyInput, OutcomeReportSchema as ReportOutcomeInput };
