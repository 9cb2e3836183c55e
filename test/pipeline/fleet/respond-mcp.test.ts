import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../pipeline/core/clock.ts';
import { fleetAgent, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { testClock } from '../../helpers/context.ts';
import { hit } from './hit.ts';

/**
 * The MCP servers speak real MCP to a real SDK client (reachable through the Host header: the SDK
 * client fetches 127.0.0.1:PORT with the fleet hostname in Host), and documentation pages change
 * on schedule.
 */
const clock = testClock('2026-11-01T00:00:00Z');
let fleet: Fleet;
const agent = fleetAgent();

beforeAll(async () => {
  fleet = await startFleet({ clock });
});
afterAll(async () => {
  await fleet?.close();
  await agent.close();
});

/** fetch that sends a fleet URL to 127.0.0.1 with the original Host (Node's fetch lets undici set Host from the URL). */
function fleetFetch(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const { fetch: ufetch } = await import('undici');
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    return ufetch(url, { ...(init as object), dispatcher: agent } as never) as unknown as Response;
  }) as typeof fetch;
}

describe('MCP servers made with the SDK', () => {
  it('streamable-http: a Client lists and calls the echo tool', async () => {
    const client = new Client({ name: 'fleet-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(fleet.endpoint('tools-mcp').url), { fetch: fleetFetch() });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(['echo']);
      const r = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(r.content).toEqual([{ type: 'text', text: 'hi' }]);
    } finally {
      await client.close();
    }
  });

  it('2026-style server speaks MCP over POST despite 405 on GET', async () => {
    const client = new Client({ name: 'fleet-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(fleet.endpoint('notes-mcp').url), { fetch: fleetFetch() }));
    try {
      expect((await client.listTools()).tools.length).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('legacy SSE server: the SDK SSE client connects and calls a tool', async () => {
    const client = new Client({ name: 'fleet-test', version: '1.0.0' });
    const f = fleetFetch();
    await client.connect(new SSEClientTransport(new URL(fleet.endpoint('tools-sse').url), { fetch: f, eventSourceInit: { fetch: f } }));
    try {
      const r = await client.callTool({ name: 'echo', arguments: { text: 'sse' } });
      expect(r.content).toEqual([{ type: 'text', text: 'sse' }]);
    } finally {
      await client.close();
    }
  });
});

describe('documentation pages', () => {
  const page = async (name: string) => {
    const d = fleet.docs.find((x) => x.name === name)!;
    const h = await hit(agent, d.url, { accept: 'text/html' });
    return { status: h.status, html: h.body, expected: d.expected };
  };

  it('follow the script around docsChangeAt', async () => {
    expect(fleet.docs.map((d) => d.behaviour).sort()).toEqual([
      'docs-cosmetic',
      'docs-failing',
      'docs-price',
      'docs-typo',
      'docs-unchanged',
    ]);
    clock.set(new Date(fleet.timeline.docsChangeAt.getTime() - DAY_MS));
    const before = new Map<string, string>();
    for (const d of fleet.docs) {
      const p = await page(d.name);
      expect(p.status).toBe(200);
      expect(p.expected).toEqual({ passed: true, reason: 'ok', status: 200 });
      before.set(d.name, p.html);
    }
    expect(before.get('tools')).toContain('recieve');
    clock.set(fleet.timeline.docsChangeAt);
    expect((await page('weather')).html).toBe(before.get('weather'));
    const cosmetic = (await page('market')).html;
    expect(cosmetic).not.toBe(before.get('market'));
    const text = (s: string) => s.replace(/<script[\s\S]*?<\/script>/g, '').replace(/\s+/g, ' ');
    expect(text(cosmetic)).toBe(text(before.get('market')!));
    expect((await page('search')).html).toContain('$0.02');
    expect((await page('tools')).html).toContain('You will receive');
    const failing = await page('translate');
    expect(failing.status).toBe(500);
    expect(failing.expected).toEqual({ passed: false, reason: 'status_not_expected', status: 500 });
  });

  it('setDoc overrides a page (HTML or a failing status) and null restores the script', async () => {
    fleet.setDoc('weather', '<h1>Rewritten</h1>');
    expect((await page('weather')).html).toBe('<h1>Rewritten</h1>');
    fleet.setDoc('weather', { status: 404, html: 'gone' });
    expect((await page('weather')).status).toBe(404);
    fleet.setDoc('weather', null);
    expect((await page('weather')).html).toContain('Weather API');
  });
});
