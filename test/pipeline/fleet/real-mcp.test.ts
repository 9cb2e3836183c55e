import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fleetAgent,
  loadRealMcpServers,
  REAL_MCP_FILES,
  REAL_MCP_STATUSES,
  realdataDir,
  startFleet,
  type Fleet,
} from '../../../pipeline/fleet/index.ts';
import type { DueOperation } from '../../../pipeline/probe/due.ts';
import { probeOne } from '../../../pipeline/probe/probe-one.ts';
import { createProbeAgent, safeFetch } from '../../../pipeline/probe/safe-fetch.ts';
import { testClock } from '../../helpers/context.ts';
import { realdataGate } from '../../helpers/realdata-gate.ts';
import { hit } from './hit.ts';

/**
 * A real MCP server's captured answers (api.arcgate.dev, 2025-11-25) served by the fleet as
 * `real-mcp:arcgate`, read at run time from the realdata folder: the bytes on the wire are the
 * captured ones, the probe's plain GET gets the info document and passes mcp-reach/3.
 */
const gate = realdataGate('real MCP captures (test/pipeline/fleet/real-mcp.test.ts)', REAL_MCP_FILES);
const clock = testClock('2026-11-25T12:00:00Z');

describe.skipIf(!gate.present)('the fleet serving a real MCP server', () => {
  let fleet: Fleet;
  const agent = fleetAgent();
  const raw = (i: number) => readFileSync(join(realdataDir(), REAL_MCP_FILES[i]!), 'utf8');
  beforeAll(async () => {
    fleet = await startFleet({ clock, realMcp: loadRealMcpServers() });
  });
  afterAll(async () => {
    await fleet?.close();
    await agent.close();
  });

  it('answers GET, GET for a stream and POST with the captured bytes', async () => {
    const url = fleet.endpoint('real-mcp-arcgate').url;
    const json = await hit(agent, url);
    expect(json.status).toBe(REAL_MCP_STATUSES.getJson);
    expect(json.body).toBe(raw(0));
    const stream = await hit(agent, url, { accept: 'text/event-stream' });
    expect(stream.status).toBe(REAL_MCP_STATUSES.getEventStream);
    expect(stream.body).toBe(raw(1));
    const r = await request(url, { method: 'POST', dispatcher: agent, body: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' });
    expect(await r.body.text()).toBe(raw(2));
    expect(JSON.parse(raw(2)).result.protocolVersion).toBe('2025-11-25');
  });

  it('is an MCP endpoint listed in the fleet MCP registry, and the probe stores its expected verdict', async () => {
    const e = fleet.endpoint('real-mcp-arcgate');
    expect(e).toMatchObject({
      protocol: 'mcp',
      serverName: 'io.fleet/real-mcp-arcgate',
      expected: { passed: true, reason: 'ok', status: 200 },
    });
    const page = JSON.parse((await hit(agent, `${fleet.mcpRegistryUrl}?limit=100&version=latest`)).body) as {
      servers: Array<{ server: { name: string; remotes: Array<{ url: string }> } }>;
    };
    const all = [...page.servers];
    expect(all.some((s) => s.server.name === 'io.fleet/real-mcp-arcgate' && s.server.remotes[0]?.url === e.url)).toBe(true);

    const opts = { timeoutMs: 3000, maxBodyBytes: 256 * 1024, maxHeaderBytes: 128 * 1024, allowPrivate: true, resolveMap: fleet.resolve };
    const probeAgent = createProbeAgent(opts);
    try {
      const op: DueOperation = {
        serviceId: 's',
        operation: 'primary',
        kind: 'call',
        url: e.url,
        method: 'GET',
        expectedStatuses: [],
        passRule: 'mcp-reach/3',
        intervalHours: 24,
        protocol: 'mcp',
        slot: new Date(0),
      };
      const out = await probeOne(op, {
        fetcher: (req) => safeFetch(req, { ...opts, dispatcher: probeAgent }),
        settings: { userAgent: 'AtlasTest/1', contactUrl: 'https://atlas.example' },
        secret: 'k',
        now: clock,
      });
      expect({ passed: out.verdict.passed, reason: out.verdict.reason, status: out.response.ok ? out.response.status : null }).toEqual(
        e.expected,
      );
      expect(out.authSchemes).toBeNull();
      expect(out.protocols).toBeNull();
    } finally {
      await probeAgent.close();
    }
  });
});
