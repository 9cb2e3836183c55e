import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../../pipeline/core/errors.ts';
import { silentLogger } from '../../../pipeline/core/log.ts';
import { normalizeRawQuery, plainDecimal, SERVICES_QUERY_PARAMS, ServicesQuerySchema } from '../../../site/contract/requests.ts';
import { SearchServicesInput, toolError, toolResult, untrustedPaths } from '../../../serve/mcp/index.ts';

describe('MCP parts', () => {
  it('derives the search input schema from the contract parameter table', () => {
    expect(Object.keys(SearchServicesInput.shape).sort()).toEqual(SERVICES_QUERY_PARAMS.map((p) => p.name).sort());
    expect(SearchServicesInput.safeParse({ limit: 100, mainnet: false, tier: 'reviewed', tag: 'ai-tools' }).success).toBe(true);
    for (const bad of [
      { limit: 0 },
      { limit: 1.5 },
      { tier: 'gold' },
      { min_pass_rate: -0.1 },
      { tag: 'A' },
      { extra: true },
      { mainnet: 'yes' },
    ]) {
      expect(SearchServicesInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('writes MCP numbers as plain decimals, so values below 1e-6 pass the query grammar', () => {
    expect(String(5e-7)).toBe('5e-7'); // what String() gives, and the grammar rejects
    expect(plainDecimal(5e-7)).toBe('0.0000005');
    expect(plainDecimal(1.25e-10)).toBe('0.000000000125');
    expect(plainDecimal(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(plainDecimal(1e21)).toBe('1000000000000000000000');
    expect(plainDecimal(1.5e22)).toBe('15000000000000000000000');
    expect(plainDecimal(-5e-7)).toBe('-0.0000005');
    expect(plainDecimal(42)).toBe('42');
    const raw = normalizeRawQuery({ max_price_usd: 0.0000005, min_pass_rate: 1e-7, mainnet: true });
    expect(raw).toEqual({ ok: true, value: { max_price_usd: '0.0000005', min_pass_rate: '0.0000001', mainnet: 'true' } });
    if (!raw.ok) throw new Error('unreachable');
    expect(ServicesQuerySchema.parse(raw.value)).toEqual({ max_price_usd: 5e-7, min_pass_rate: 1e-7, mainnet: true });
    // Still refused: negative, exponent text, more than 30 fraction digits.
    for (const bad of ['-0.0000005', '5e-7', `0.${'1'.repeat(31)}`]) {
      expect(ServicesQuerySchema.safeParse({ max_price_usd: bad }).success, bad).toBe(false);
    }
  });

  it('finds untrusted third-party text paths', () => {
    const value = {
      items: [
        { id: 'svc_a', tier: 'reviewed', name_source: 'atlas', name: 'A', tags: ['x'] },
        {
          id: 'cand_b',
          tier: 'discovered',
          name_source: 'registry',
          name: 'B',
          operator: null,
          tags: [],
          category: null,
          description: 'd',
        },
      ],
      registry_text: { third_party_text: true, name: 'x' },
      claims: [
        { source: 'operator', text: 'ok' },
        { source: 'registry', text: 'hmm' },
      ],
      change: { service_id: 'svc_a', diff: [{ op: '+', line: 'x' }] },
    };
    expect(untrustedPaths(value)).toEqual([
      '$.items[1].name',
      '$.items[1].tags',
      '$.items[1].description',
      '$.registry_text',
      '$.claims[1]',
      '$.change.diff',
    ]);
  });

  it('maps errors to tool errors with the API code; unexpected errors show no internals', () => {
    const e = toolError(new AtlasError('not_found', 'no such service'), silentLogger, 't');
    expect(e.isError).toBe(true);
    expect(e.structuredContent).toEqual({ api_status: 'preview', error: 'not_found', message: 'no such service' });
    const u = toolError(new Error('secret stack detail'), silentLogger, 't');
    expect(u.structuredContent).toEqual({ api_status: 'preview', error: 'internal', message: 'internal error' });
    expect(JSON.stringify(u)).not.toContain('secret');
  });

  it('results carry the same JSON as text and structured content', () => {
    const r = toolResult({ a: 1 });
    expect(r.structuredContent).toEqual({ a: 1 });
    expect(r.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
  });
});
