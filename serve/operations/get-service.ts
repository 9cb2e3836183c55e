import { AtlasError } from '../../pipeline/core/errors.ts';
import { ServiceIdSchema } from '../../site/contract/requests.ts';
import type { ServiceDetail } from '../../site/contract/service-detail.ts';
import { hashKey } from '../auth/keys.ts';
import { signReferral } from '../auth/referral.ts';
import type { AppDeps } from '../deps.ts';
import { knownKeyId } from '../inbox/writes.ts';
import { presentDetail } from '../search/present.ts';

/**
 * GET /api/v1/services/{id} and the MCP get_service tool. Unknown and malformed ids are both 404
 * (a malformed id is simply not a service). With a known key the body carries `referral_id`, a
 * signed token usable in an outcome report for 7 days. An unknown key is ignored on reads
 * (reading needs no key, docs/design.md, keys): the answer then has no referral_id.
 */
export async function getService(deps: AppDeps, id: string, key?: string | null): Promise<ServiceDetail> {
  const notFound = () => new AtlasError('not_found', `no service with id ${JSON.stringify(id.slice(0, 200))}`);
  if (!ServiceIdSchema.safeParse(id).success) throw notFound();
  const site = deps.site.current();
  const row = site.byId.get(id);
  if (!row) throw notFound();
  const detail = await deps.details.get(site, id);
  if (!detail) throw notFound();
  const now = deps.clock();
  const out = presentDetail(detail, row, { now, baseUrl: deps.config.serve.baseUrl });
  // generated_at and data_as_of are the generation's (serve/site/details.ts): a file holds those of
  // the render that wrote it, which may be an earlier generation's (site/contract/service-file.ts).
  const keyId = key ? await knownKeyId(deps.writes, hashKey(key)) : undefined;
  if (keyId) out.referral_id = signReferral(deps.secret, id, keyId, now);
  else delete out.referral_id;
  return out;
}
