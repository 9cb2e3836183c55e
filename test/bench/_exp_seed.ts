import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../pipeline/store/index.ts';
type Endpoint = { url: string; method: string; protocol: string };
export async function seedForExp(store: Store, endpoints: Endpoint[], dir: string): Promise<void> {
  const file = join(dir, 'seed.ndjson');
  writeFileSync(
    file,
    endpoints
      .map((e, i) =>
        JSON.stringify({ id: `cand_b${i}`, url: e.url, method: e.method, host: new URL(e.url).hostname, protocol: e.protocol, rule: e.protocol === 'mcp' ? 'mcp-reach/3' : 'x402-mainnet/1' }),
      )
      .join('\n'),
  );
  const src = `read_json('${file}', format = 'newline_delimited', columns = {id: 'VARCHAR', url: 'VARCHAR', method: 'VARCHAR', host: 'VARCHAR', protocol: 'VARCHAR', rule: 'VARCHAR'})`;
  await store.run(`INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at, protocol)
    SELECT id, 'discovered', CASE WHEN protocol = 'mcp' THEN 'mcp_server' ELSE 'api_endpoint' END, host, 'registry', host, url, method,
           TIMESTAMP '2026-11-01', TIMESTAMP '2026-11-01', TIMESTAMP '2026-11-01', protocol FROM ${src}`);
  await store.run(`INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours, enabled)
    SELECT id, 'primary', 'call', true, url, method, NULL, rule, 24, true FROM ${src}`);
}

