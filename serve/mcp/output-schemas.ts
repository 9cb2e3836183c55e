import { z } from 'zod';
import { ChangeList } from '../../site/contract/changes.ts';
import { Fields } from '../../site/contract/fields.ts';
import { Health } from '../../site/contract/health.ts';
import { Report, ReportList } from '../../site/contract/reports.ts';
import { Roadmap } from '../../site/contract/roadmap.ts';
import { ServiceDetail } from '../../site/contract/service-detail.ts';
import { ServiceList } from '../../site/contract/service-list.ts';
import { Stats } from '../../site/contract/stats.ts';
import { Status } from '../../site/contract/status.ts';
import { FeedbackReceipt, KeyCreated, OutcomeReceipt } from '../../site/contract/writes.ts';
import { UNTRUSTED_NOTICE } from './untrusted.ts';

/**
 * MCP tool output schemas: the contract's response schemas (site/contract), the same ones that
 * validate the published JSON and generate the OpenAPI document, so a tool's `structuredContent` is
 * the HTTP body by construction. The one addition is the MCP-only `_untrusted_fields` marking
 * (serve/mcp/untrusted.ts), present when the result carries third-party text. The MCP server
 * validates every successful result against its schema before answering; tool errors carry the
 * contract's error body instead (not validated by the SDK: `isError` results are exempt).
 */
export const UntrustedFields = z.strictObject({
  notice: z.literal(UNTRUSTED_NOTICE),
  /** JSON paths (`$.items[0].name`) of the untrusted values in this result. */
  paths: z.array(z.string()),
});

const output = <S extends z.ZodObject>(body: S) => body.extend({ _untrusted_fields: UntrustedFields.optional() });

export const SearchServicesOutput = output(ServiceList);
export const GetServiceOutput = output(ServiceDetail);
export const StatsOutput = output(Stats);
export const StatusOutput = output(Status);
export const HealthOutput = output(Health);
export const ReportListOutput = output(ReportList);
export const ReportOutput = output(Report);
export const ChangeListOutput = output(ChangeList);
export const RoadmapOutput = output(Roadmap);
export const FieldsOutput = output(Fields);
export const KeyCreatedOutput = output(KeyCreated);
export const FeedbackReceiptOutput = output(FeedbackReceipt);
export const OutcomeReceiptOutput = output(OutcomeReceipt);
