import type { Store } from '../../../pipeline/store/store.ts';

/** Insert a service and its operations directly (tests do not depend on ingest). */
export interface SeedOp {
  id?: string;
  kind?: 'call' | 'documentation';
  url: string;
  method?: string;
  rule: 'reviewed/1' | 'x402-mainnet/1' | 'x402-mainnet/2' | 'mcp-reach/3';
  expected?: number[] | null;
  intervalHours?: number;
  enabled?: boolean;
}

export interface SeedService {
  id: string;
  tier?: 'reviewed' | 'discovered';
  type?: 'api_endpoint' | 'mcp_server' | 'task_marketplace';
  protocol?: 'x402' | 'mcp' | 'none';
  active?: boolean;
  listed?: boolean;
  ops: SeedOp[];
}

export async function seedServices(store: Store, services: SeedService[], at = '2026-11-01T00:00:00Z'): Promise<void> {
  for (const s of services) {
    const primary = s.ops[0]!;
    const host = new URL(primary.url).hostname;
    const tier = s.tier ?? (s.id.startsWith('svc_') ? 'reviewed' : 'discovered');
    const protocol = s.protocol ?? (primary.rule === 'mcp-reach/3' ? 'mcp' : 'x402');
    await store.run(
      `INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at, protocol, active, listed)
       VALUES ($1, $2, $3, $1, 'atlas', $4, $5, $6, $7::TIMESTAMP, $7::TIMESTAMP, $7::TIMESTAMP, $8, $9, $10)`,
      [
        s.id,
        tier,
        s.type ?? (protocol === 'mcp' ? 'mcp_server' : 'api_endpoint'),
        host,
        primary.url,
        primary.method ?? 'GET',
        at,
        protocol,
        s.active ?? true,
        s.listed ?? true,
      ],
    );
    for (const [i, o] of s.ops.entries()) {
      const expected =
        o.expected === undefined ? (o.rule === 'reviewed/1' ? '[402]' : null) : o.expected === null ? null : JSON.stringify(o.expected);
      await store.run(
        `INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours, enabled)
         VALUES ($1, $2, $3, $4, $5, $6, $7::JSON::INTEGER[], $8, $9, $10)`,
        [
          s.id,
          o.id ?? (i === 0 ? 'primary' : `op${i}`),
          o.kind ?? 'call',
          i === 0,
          o.url,
          o.method ?? 'GET',
          expected,
          o.rule,
          o.intervalHours ?? (tier === 'reviewed' ? 1 : 24),
          o.enabled ?? true,
        ],
      );
    }
  }
}
