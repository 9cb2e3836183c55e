import { describe, expect, it } from 'vitest';
import { buildFields, SERVICES_QUERY_RESOURCE } from '../../../site/contract/field-dictionary.ts';
import { Fields } from '../../../site/contract/fields.ts';
import { buildOpenApi } from '../../../site/contract/openapi.ts';
import { SERVICES_FILTER_UNKNOWN, SERVICES_QUERY_PARAMS, type ServicesFilterName } from '../../../site/contract/requests.ts';
import { renderLlmsTxt } from '../../../site/discovery/index.ts';
import { harness, T0 } from '../../serve/harness.ts';

/**
 * Every search filter states how it treats a service whose value is unknown, from one home
 * (SERVICES_FILTER_UNKNOWN), in the three places a client reads the parameters: the field dictionary
 * (GET /api/v1/fields), the OpenAPI document and llms.txt. The second test holds the server to the
 * statements that leave services out.
 */
const NOT_FILTERS = new Set(['group', 'sort', 'limit', 'offset']);
const FILTERS = Object.keys(SERVICES_FILTER_UNKNOWN) as ServicesFilterName[];

describe('unknown values of search filters', () => {
  it('every filter has its statement, and the field dictionary, the OpenAPI document and llms.txt carry it', () => {
    expect(SERVICES_QUERY_PARAMS.map((p) => p.name).filter((n) => !NOT_FILTERS.has(n))).toEqual(FILTERS);

    const fields = Fields.parse(buildFields(new Date(T0))).fields.filter((f) => f.resource === SERVICES_QUERY_RESOURCE);
    const openapi = buildOpenApi() as { paths: Record<string, { get: { parameters: Array<{ name: string; description: string }> } }> };
    const params = openapi.paths['/api/v1/services']!.get.parameters;
    const llms = renderLlmsTxt('https://atlas.example').split('\n');

    for (const name of FILTERS) {
      const text = `Unknown values: ${SERVICES_FILTER_UNKNOWN[name]}`;
      expect(fields.find((f) => f.path === name)?.definition, `fields ${name}`).toContain(text);
      expect(params.find((p) => p.name === name)?.description, `openapi ${name}`).toContain(text);
      expect(
        llms.find((l) => l.startsWith(`- \`${name}\` (`)),
        `llms.txt ${name}`,
      ).toContain(text);
    }
    // Every search parameter is in the dictionary, filters or not.
    expect(fields.map((f) => f.path)).toEqual(SERVICES_QUERY_PARAMS.map((p) => p.name));
  });

  it('the server leaves out the services whose value is unknown, as stated', async () => {
    const h = await harness({
      services: [
        {
          id: 'cand_known',
          payers: 10,
          termsChanges90d: 0,
          price: 0.01,
          tags: ['search'],
          listed: true,
          declaredTerms: {
            rule: 'declared-terms/1',
            differs: true,
            dimensions: ['price'],
            since: '2026-11-20T00:00:00.000Z',
            sources_compared: 1,
          },
        },
        // reviewed: no registry payers, no registry listing, no observed terms; no known price
        { id: 'svc_reviewed', price: null, termsChanges90d: null },
        // never checked, nothing known
        {
          id: 'cand_nothing',
          type: 'mcp_server',
          checks30d: 0,
          passed30d: 0,
          lastCheckAgoHours: null,
          latestPassed: null,
          payers: null,
          price: null,
          listed: null,
          termsChanges90d: null,
        },
      ],
    });
    const ids = async (query: string): Promise<string[]> => {
      const r = await h.json(`/api/v1/services?scope=index&sort=name&${query}`);
      expect(r.status, `${query}: ${JSON.stringify(r.body)}`).toBe(200);
      return (r.body.items as Array<{ id: string }>).map((i) => i.id).sort();
    };
    try {
      expect(await ids('min_payers=0')).toEqual(['cand_known']);
      expect(await ids('max_terms_changes_90d=0')).toEqual(['cand_known']);
      expect(await ids('max_price_usd=1')).toEqual(['cand_known']);
      expect(await ids('min_pass_rate=0')).toEqual(['cand_known', 'svc_reviewed']);
      expect(await ids('min_checks=0')).toEqual(['cand_known', 'cand_nothing', 'svc_reviewed']);
      expect(await ids('min_days=0')).toEqual(['cand_known', 'cand_nothing', 'svc_reviewed']);
      expect(await ids('passing=true')).toEqual(['cand_known', 'svc_reviewed']);
      expect(await ids('passing=false')).toEqual([]);
      expect(await ids('listed=true')).toEqual(['cand_known']);
      expect(await ids('listed=false')).toEqual([]);
      expect(await ids('terms_mismatch=true')).toEqual(['cand_known']);
      expect(await ids('terms_mismatch=false')).toEqual([]);
      expect(await ids('mainnet=true')).toEqual(['cand_known', 'svc_reviewed']);
      expect(await ids('mainnet=false')).toEqual([]);
      expect(await ids('network=base')).toEqual(['cand_known', 'svc_reviewed']);
      expect(await ids('tag=search')).toEqual(['cand_known']);
      const directory = await h.json('/api/v1/services?scope=directory');
      expect((directory.body.items as Array<{ id: string }>).map((i) => i.id)).not.toContain('cand_nothing');
    } finally {
      await h.close();
    }
  });
});
