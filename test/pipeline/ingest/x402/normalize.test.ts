import { describe, expect, it } from 'vitest';
import {
  isTemplatedUrl,
  normalizeX402Item,
  registryTime,
  sanitizeRaw,
  validMetadata,
  x402CandidateId,
  x402McpCandidateId,
} from '../../../../pipeline/ingest/index.ts';
import { x402Item } from '../support.ts';

const norm = (item: unknown, pageVersion: number | null = null) => {
  const r = normalizeX402Item(item, { pageVersion, secret: 'test-secret-0123456789abcdef' });
  if (!r.ok) throw new Error(`rejected: ${r.reason}`);
  return r.record;
};

describe('x402 registry item → service record', () => {
  it('takes the method from v2 bazaar metadata, then v1 outputSchema, else GET; the id depends on method and URL', () => {
    const v2 = norm(x402Item('https://a.example/x', { extensions: { bazaar: { info: { input: { type: 'http', method: 'post' } } } } }));
    expect(v2.method).toBe('POST');
    const v1 = norm({
      resource: 'https://a.example/x',
      x402Version: 1,
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: '5000',
          asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
          payTo: '0x1',
          outputSchema: { input: { method: 'PUT' } },
        },
      ],
    });
    expect(v1.method).toBe('PUT');
    expect(v1.x402_version).toBe(1);
    expect(v1.registry_price_usd).toBe(0.005); // EVM asset compared lower-cased
    expect(v1.registry_networks).toEqual(['eip155:8453']);
    const none = norm(x402Item('https://a.example/x', { extensions: { bazaar: { info: { input: { method: 'FETCH' } } } } }));
    expect(none.method).toBe('GET');
    expect(none.id).toBe(x402CandidateId('GET', 'https://a.example/x'));
    expect(v2.id).not.toBe(none.id);
    expect(none.id).toMatch(/^cand_[0-9a-f]{20}$/);
  });

  it('prices the lowest offer on a known USD stablecoin only; unknown assets and amounts are unpriced', () => {
    const accepts = [
      { scheme: 'exact', network: 'eip155:8453', amount: '20000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      { scheme: 'exact', network: 'solana', amount: '15000', asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
      { scheme: 'exact', network: 'eip155:8453', amount: '1', asset: '0x4200000000000000000000000000000000000042' },
      { scheme: 'exact', network: 'eip155:137', amount: '$0.01', asset: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
      { scheme: 'exact', network: 'solana', amount: '1', asset: 'epjfwdd5aufqssqem2qn1xzybapc8g4wEGGkZwyTDt1v' }, // Solana is case-sensitive
    ];
    const r = norm(x402Item('https://p.example/', { accepts }));
    expect(r.registry_price_usd).toBe(0.015);
    expect(r.registry_networks).toEqual(['eip155:137', 'eip155:8453', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']);
    const unpriced = norm(x402Item('https://p.example/', { accepts: [{ network: 'base', amount: '1000', asset: 'USDC' }] }));
    expect(unpriced.registry_price_usd).toBeNull();
    const decoy = norm(
      x402Item('https://p.example/', {
        accepts: [{ scheme: 'exact', network: 'base', amount: '2500000000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }],
      }),
    );
    expect(decoy.registry_price_usd).toBe(2500);
  });

  it('counts mainnet stablecoins only: a cheaper testnet offer never beats a mainnet one; testnet-only is unpriced', () => {
    const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
    const SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
    const both = norm(
      x402Item('https://t.example/', {
        accepts: [
          { scheme: 'exact', network: 'eip155:84532', amount: '1000', asset: SEPOLIA_USDC }, // $0.001 on a testnet
          { scheme: 'exact', network: 'eip155:8453', amount: '20000', asset: BASE_USDC }, // $0.02 on mainnet
        ],
      }),
    );
    expect(both.registry_price_usd).toBe(0.02);
    expect(both.registry_networks).toEqual(['eip155:8453', 'eip155:84532']); // the testnet offer stays visible
    const testnetOnly = norm(
      x402Item('https://t.example/', { accepts: [{ scheme: 'exact', network: 'base-sepolia', amount: '1000', asset: SEPOLIA_USDC }] }),
    );
    expect(testnetOnly.registry_price_usd).toBeNull();
  });

  it('flags templated URLs (:name, {name}, %7Bname%7D) but not ports', () => {
    expect(isTemplatedUrl('https://a.example/users/:id')).toBe(true);
    expect(isTemplatedUrl('https://a.example/users/{id}/x')).toBe(true);
    expect(isTemplatedUrl('https://a.example/users/%7Bid%7D')).toBe(true);
    expect(isTemplatedUrl('https://a.example/q?x=:var1')).toBe(true);
    expect(isTemplatedUrl('https://a.example:8443/users/42')).toBe(false);
    expect(isTemplatedUrl('https://a.example/time/12:30')).toBe(false);
    expect(norm(x402Item('https://a.example/u/:id')).templated_url).toBe(true);
  });

  it('names from serviceName, else label, else the host; tags by the API rule; usage and listing data', () => {
    const named = norm(
      x402Item('https://API.Example.com/x', { serviceName: 'Weather', tags: ['Weather Data', 'a_b', '<b>x</b>', 'ok-1', 7] }),
    );
    expect(named).toMatchObject({ name: 'Weather', host: 'api.example.com', tags: ['weather-data', 'a-b', 'bxb', 'ok-1'] });
    expect(norm(x402Item('https://h.example/x', { label: 'Lbl' })).name).toBe('Lbl');
    expect(norm(x402Item('https://h.example/x', { serviceName: '  \u202E ' })).name).toBe('h.example');
    const u = norm(
      x402Item('https://h.example/x', {
        lastUpdated: 1764028800,
        quality: { l30DaysTotalCalls: 1200, l30DaysUniquePayers: '17', lastCalledAt: '2026-11-24T10:00:00Z' },
      }),
      2,
    );
    expect(u).toMatchObject({
      registry_updated_at: '2025-11-25T00:00:00.000Z',
      registry_calls_30d: 1200,
      registry_payers_30d: 17,
      registry_last_called_at: '2026-11-24T10:00:00.000Z',
      x402_version: 2,
    });
    expect(registryTime('2026-11-20T00:00:00Z')).toBe('2026-11-20T00:00:00.000Z');
    expect(registryTime(1764028800000)).toBe('2025-11-25T00:00:00.000Z');
    expect(registryTime('soon')).toBeNull();
  });

  it('skips unusable rows with a reason', () => {
    const s = (item: unknown) => normalizeX402Item(item, { pageVersion: 2, secret: 's' });
    expect(s({ accepts: [] })).toEqual({ ok: false, reason: 'invalid_item' });
    expect(s(x402Item('ftp://a.example/x'))).toEqual({ ok: false, reason: 'invalid_url' });
    expect(s(x402Item('https://a.example/\u202Ex'))).toEqual({ ok: false, reason: 'invalid_url' });
    expect(s(x402Item('https://a.example/x', { type: 'object' }))).toEqual({ ok: false, reason: 'unknown_type' });
    expect(s(x402Item('https://a.example/x', { type: 7 }))).toEqual({ ok: false, reason: 'unknown_type' });
    expect(s(x402Item('mcp://tool/get_weather', { type: 'mcp' }))).toEqual({ ok: false, reason: 'mcp_no_endpoint' });
    expect(s(x402Item('not a url', { type: 'MCP' }))).toEqual({ ok: false, reason: 'mcp_no_endpoint' });
  });

  it('a type "mcp" item with an http(s) server URL is the MCP server it names, probed with mcp-reach', () => {
    const s = (item: unknown) => normalizeX402Item(item, { pageVersion: 2, secret: 's' });
    const item = x402Item('https://tools.example/mcp', {
      type: 'mcp',
      serviceName: 'Paid tools',
      extensions: { bazaar: { info: { input: { type: 'mcp', toolName: 'search', transport: 'sse' } } } },
    });
    const r = s(item);
    if (!r.ok) throw new Error(r.reason);
    expect(r.record).toMatchObject({
      id: x402McpCandidateId('https://tools.example/mcp'),
      type: 'mcp_server',
      protocol: 'mcp',
      pass_rule: 'mcp-reach/3',
      method: 'GET',
      remote_type: 'sse',
      name: 'Paid tools',
      registry_price_usd: 0.01,
    });
    expect(r.record.id).not.toBe(x402CandidateId('GET', 'https://tools.example/mcp'));
    expect(r.quirks).toContain('mcp_item');
    expect(r.quirks).not.toContain('method_defaulted');
    const plain = s(x402Item('https://tools.example/mcp', { type: 'mcp' }));
    expect(plain.ok && plain.record.remote_type).toBe('streamable-http');
  });

  it('drops invalid optional metadata field by field and keeps the resource', () => {
    const s = (item: unknown) => normalizeX402Item(item, { pageVersion: 2, secret: 's' });
    const r = s(
      x402Item('https://h.example/x', {
        serviceName: 'N'.repeat(121),
        label: 'Fallback',
        description: { html: '<b>x</b>' },
        tags: 'weather',
        iconUrl: 'javascript:alert(1)',
        resource: { url: 'https://h.example/x', serviceName: 42, description: 'From the resource' },
      }),
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.dropped.sort()).toEqual(['description', 'iconUrl', 'resource.serviceName', 'serviceName', 'tags']);
    expect(r.quirks).toContain('dropped_metadata');
    expect(r.record).toMatchObject({ name: 'Fallback', description: 'From the resource', tags: [], url: 'https://h.example/x' });
    const raw = r.record.registry_raw as Record<string, unknown>;
    for (const k of ['serviceName', 'description', 'tags', 'iconUrl']) expect(raw).not.toHaveProperty(k);
    const ok = s(x402Item('https://h.example/x', { serviceName: 'N'.repeat(120), iconUrl: 'https://h.example/i.png', tags: ['a', 1] }));
    expect(ok.ok && ok.dropped).toEqual([]);
    expect(ok.ok && ok.quirks).not.toContain('dropped_metadata');
    expect(validMetadata('iconUrl', 'http://h.example/i.png')).toBe(false);
  });

  it('sanitizes hostile text; the raw item keeps sanitized strings and a hash instead of payTo', () => {
    const hostile = `Evil\u202E txt.exe\u0007\u0000 <script>alert(1)</script> ${'A'.repeat(10_000)}`;
    const r = norm(
      x402Item('https://evil.example/x', { serviceName: hostile, description: 'line1\nline2\u001b[31m\u2066', tags: ['\u202Ecrypto'] }),
    );
    // A 10 kB serviceName is not a name: dropped (soft-dropped metadata), so the host names it.
    expect(r.name).toBe('evil.example');
    const short = norm(x402Item('https://evil.example/x', { serviceName: hostile.slice(0, 110) }));
    expect(short.name.startsWith('Evil txt.exe <script>alert(1)</script> AAA')).toBe(true);
    expect(short.name).not.toMatch(/[\u0000-\u001F\u202A-\u202E\u2066-\u2069]/);
    expect(r.description).toBe('line1 line2[31m');
    expect(r.tags).toEqual(['crypto']);
    const raw = JSON.stringify(r.registry_raw);
    expect(raw).not.toMatch(/\\u202e|\\u0007|\\u0000|\u202E/i);
    expect(raw).not.toContain('0x1111111111111111111111111111111111111111');
    expect(raw).toContain('payTo_hash');
    expect((r.registry_raw as { serviceName?: string }).serviceName).toBeUndefined();
    expect(JSON.stringify(short.registry_raw)).not.toMatch(/\u202e|\u0007|\u0000|\u202E/i);
    expect(sanitizeRaw({ a: Array.from({ length: 80 }, (_, i) => i) }, 's')).toEqual({
      a: [...Array.from({ length: 50 }, (_, i) => i), '[30 more items capped]'],
    });
  });
});
