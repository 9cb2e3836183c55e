import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DueOperation } from '../../../pipeline/probe/due.ts';
import { probeOne } from '../../../pipeline/probe/probe-one.ts';
import { createProbeAgent, safeFetch, type EdgeRequest } from '../../../pipeline/probe/safe-fetch.ts';
import { REAL_402_FILES, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { testClock } from '../../helpers/context.ts';
import { realResponses } from '../../helpers/real-402.ts';
import { realdataGate } from '../../helpers/realdata-gate.ts';

/**
 * Contract between the fleet and the probe: every endpoint's `expected` verdict is what the probe's
 * own edge + pass rules (pipeline/probe) return for a discovered-service check, before and inside an
 * outage window. If a rule changed on purpose, update pipeline/fleet/behaviours.ts (expectedVerdict) and
 * docs/notes/fleet.md together. The fleet also serves the real 402 responses of the realdata folder
 * (read at run time; pipeline/fleet/real-402.ts holds their expected verdicts). Without that folder
 * the synthetic endpoints are still checked and one printed line says the real ones were left out
 * (a failure in CI: test/helpers/realdata-gate.ts).
 */
const gate = realdataGate(
  'the real 402 endpoints of the probe agreement (test/pipeline/fleet/fleet.probe-agreement.test.ts)',
  REAL_402_FILES,
);
const clock = testClock('2026-11-25T12:00:00Z');
let fleet: Fleet;
let dispatcher: ReturnType<typeof createProbeAgent>;

beforeAll(async () => {
  fleet = await startFleet({ clock, slowMs: 30_000, real402: gate.present ? realResponses() : [] });
});
afterAll(async () => {
  await dispatcher?.close();
  await fleet?.close();
});

describe('fleet expectations agree with the probe', () => {
  it('gives the same verdict, reason and status for every endpoint and page, before and during an outage', async () => {
    const opts = { timeoutMs: 5000, maxBodyBytes: 256 * 1024, maxHeaderBytes: 128 * 1024, allowPrivate: true, resolveMap: fleet.resolve };
    dispatcher = createProbeAgent(opts);
    const fetcher = (req: EdgeRequest) => safeFetch(req, { ...opts, dispatcher });
    const mismatches: string[] = [];
    for (const at of [clock(), new Date(fleet.timeline.outages[0]!.start.getTime() + 3_600_000)]) {
      clock.set(at);
      await Promise.all(
        fleet.endpoints.map(async (e) => {
          const op: DueOperation = {
            serviceId: 'cand_fleet',
            operation: 'primary',
            kind: 'call',
            url: e.url,
            method: e.method,
            expectedStatuses: [],
            passRule: e.protocol === 'mcp' ? 'mcp-reach/3' : 'x402-mainnet/2',
            intervalHours: 24,
            protocol: e.protocol,
            slot: at,
          };
          const out = await probeOne(op, {
            fetcher,
            settings: { userAgent: 'AtlasFleetTest/1', contactUrl: 'https://atlas.example/probe' },
            secret: 'fleet-test',
            now: clock,
          });
          const got = { passed: out.verdict.passed, reason: out.verdict.reason, status: out.response.ok ? out.response.status : null };
          const want = e.expectedAt(at);
          if (got.passed !== want.passed || got.reason !== want.reason || got.status !== want.status) {
            mismatches.push(
              `${at.toISOString()} ${e.name}: expected ${JSON.stringify(want)}, probe ${JSON.stringify(got)} (${out.verdict.detail})`,
            );
          }
        }),
      );
      // Documentation pages: reviewed/1 with expected [200] (the second instant is after docsChangeAt).
      for (const d of fleet.docs) {
        const op: DueOperation = {
          serviceId: 'svc_fleet',
          operation: 'docs',
          kind: 'documentation',
          url: d.url,
          method: 'GET',
          expectedStatuses: [200],
          passRule: 'reviewed/1',
          intervalHours: 24,
          protocol: null,
          slot: at,
        };
        const out = await probeOne(op, {
          fetcher,
          settings: { userAgent: 'AtlasFleetTest/1', contactUrl: 'https://atlas.example/probe' },
          secret: 'fleet-test',
          now: clock,
        });
        const got = { passed: out.verdict.passed, reason: out.verdict.reason, status: out.response.ok ? out.response.status : null };
        if (JSON.stringify(got) !== JSON.stringify(d.expected))
          mismatches.push(`${at.toISOString()} docs ${d.name}: expected ${JSON.stringify(d.expected)}, probe ${JSON.stringify(got)}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 60_000);
});
