import { describe, expect, it } from 'vitest';
import { buildRequest, type DueOperation } from '../../../pipeline/probe/index.ts';

const op = (o: Partial<DueOperation>): DueOperation => ({
  serviceId: 's',
  operation: 'primary',
  kind: 'call',
  url: 'https://a.example/x',
  method: 'GET',
  expectedStatuses: [402],
  passRule: 'x402-mainnet/1',
  intervalHours: 24,
  protocol: 'x402',
  slot: new Date(0),
  ...o,
});
const settings = { userAgent: 'AtlasProbe/0.1', contactUrl: 'https://atlas.example/about/probe' };

describe('buildRequest', () => {
  it('GET without body, JSON accept, identifying user agent', () => {
    const r = buildRequest(op({}), settings);
    expect(r).toMatchObject({
      method: 'GET',
      body: null,
      headers: { accept: 'application/json', 'user-agent': 'AtlasProbe/0.1 (+https://atlas.example/about/probe)' },
    });
    expect(r.wantBody!(402, {})).toBe(true);
    expect(r.wantBody!(200, {})).toBe(false);
  });
  it('POST to an x402 endpoint sends {} as JSON', () => {
    expect(buildRequest(op({ method: 'POST' }), settings)).toMatchObject({
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
  });
  it('mcp-reach/3 is always a plain GET and never reads the body', () => {
    const r = buildRequest(op({ method: 'POST', passRule: 'mcp-reach/3', protocol: 'mcp' }), settings);
    expect(r).toMatchObject({ method: 'GET', body: null });
    expect(r.wantBody!(200, {})).toBe(false);
  });
  it('documentation pages are read whole', () => {
    const r = buildRequest(op({ kind: 'documentation', passRule: 'reviewed/1' }), settings);
    expect(r.wantBody!(200, {})).toBe(true);
    expect(r.headers.cookie).toBeUndefined();
  });
});
