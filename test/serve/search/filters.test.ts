import { describe, expect, it } from 'vitest';
import { SERVICES_FILTER_UNKNOWN, type ServicesFilterName } from '../../../site/contract/requests.ts';
import { compileGeneration } from '../../../serve/search/compile.ts';
import { FILTERS, queryFilters } from '../../../serve/search/filters.ts';
import { parseServicesQuery } from '../../../serve/search/query.ts';
import { buildService, generateSpecs } from '../fixture.ts';

const NOW = new Date('2026-11-25T12:00:00Z');

/** One value per filter parameter (scope=directory is the filter; index turns it off). */
const VALUES: Record<ServicesFilterName, string> = {
  q: 'weather',
  tier: 'discovered',
  type: 'api_endpoint',
  host: 'API.example',
  network: 'Base',
  mainnet: 'true',
  passing: 'true',
  templated: 'false',
  min_pass_rate: '0.5',
  min_checks: '1',
  min_days: '1',
  min_payers: '1',
  tag: 'weather',
  max_price_usd: '1',
  max_terms_changes_90d: '0',
  listed: 'true',
  terms_mismatch: 'true',
  listed_but_failing: 'true',
  passing_but_unlisted: 'false',
  scope: 'directory',
  provider: 'API.example',
};

describe('filter descriptors', () => {
  const records = generateSpecs(50).map((s) => buildService(s, NOW).record);
  const { columns: c } = compileGeneration(records);

  it('one descriptor per filter of the contract, and each is turned on by its own parameter alone', () => {
    expect(Object.keys(FILTERS).sort()).toEqual(Object.keys(SERVICES_FILTER_UNKNOWN).sort());
    for (const name of Object.keys(VALUES) as ServicesFilterName[]) {
      const raw = name === 'scope' ? { scope: 'directory' } : { scope: 'index', [name]: VALUES[name] };
      const f = queryFilters(c, parseServicesQuery(raw), NOW.getTime());
      expect(f.enumCols.length + f.rangeCols.length + f.custom.length, name).toBe(1);
      expect(f.narrowers().length, name).toBeGreaterThan(0);
    }
    expect(queryFilters(c, parseServicesQuery({ scope: 'index' }), NOW.getTime()).narrowers()).toHaveLength(0);
  });

  it('text values are normalized as their filters compare them, so the echo and the cache key agree', () => {
    const q = parseServicesQuery({ host: 'API.Example', provider: 'X.Test', network: 'Base', q: '  Weather   API ' });
    expect([q.host, q.provider, q.network, q.q]).toEqual(['api.example', 'x.test', 'base', 'Weather API']);
    expect('q' in parseServicesQuery({ q: '   ' })).toBe(false);
  });
});
