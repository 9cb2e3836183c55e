import { describe, expect, it } from 'vitest';
import { networkRows } from '../../../pipeline/compute/index.ts';
import { isMainnet } from '../../../site/contract/networks.ts';
import { addDiscovered, addReviewed, at, insertTerms, makeTerms, T0 } from './fixtures.ts';
import { computeAt, withDb } from './helpers.ts';

describe('derived summary fields (service_derived)', () => {
  it('price and networks with their sources, mainnet, provider endpoints, templated URLs', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_obs', host: 'shared.example', registry_price_usd: 0.01, registry_networks: ['eip155:8453'] });
      await insertTerms(store, [
        makeTerms({ service_id: 'cand_obs', observed_at: at(T0, 1) }),
        makeTerms({ service_id: 'cand_obs', observed_at: at(T0, 2), networks: ['eip155:137'] }),
        // observed after "now": ignored
        makeTerms({ service_id: 'cand_obs', observed_at: at(T0, 9), networks: ['eip155:84532'] }),
      ]);
      await addDiscovered(store, {
        id: 'cand_reg',
        host: 'shared.example',
        url: 'https://shared.example/items/:id',
        registry_networks: ['base-sepolia'],
      });
      await addDiscovered(store, {
        id: 'cand_unknown',
        host: 'shared.example',
        url: 'https://shared.example/{name}/x',
        registry_networks: ['eip155:999999'],
      });
      await addDiscovered(store, { id: 'cand_mcp', type: 'mcp_server', protocol: 'mcp' });
      await addReviewed(store, { id: 'svc_op', operator_price_usd: 0.05, operator_networks: ['solana', 'eip155:84532'] });
      await addReviewed(store, { id: 'svc_none', protocol: 'none', type: 'task_marketplace' });
      await computeAt(store, dir, at(T0, 5));
      const rows = await store.all<Record<string, unknown>>(
        'SELECT service_id, price_usd, price_source, networks, networks_source, mainnet, provider_endpoints, templated_url FROM service_derived ORDER BY service_id',
      );
      expect(rows).toEqual([
        {
          service_id: 'cand_mcp',
          price_usd: null,
          price_source: null,
          networks: [],
          networks_source: 'registry',
          mainnet: null,
          provider_endpoints: 1,
          templated_url: false,
        },
        {
          service_id: 'cand_obs',
          price_usd: 0.01,
          price_source: 'registry',
          networks: ['eip155:137'],
          networks_source: 'observed',
          mainnet: true,
          provider_endpoints: 3,
          templated_url: false,
        },
        {
          service_id: 'cand_reg',
          price_usd: null,
          price_source: null,
          networks: ['base-sepolia'],
          networks_source: 'registry',
          mainnet: false,
          provider_endpoints: 3,
          templated_url: true,
        },
        {
          service_id: 'cand_unknown',
          price_usd: null,
          price_source: null,
          networks: ['eip155:999999'],
          networks_source: 'registry',
          mainnet: false,
          provider_endpoints: 3,
          templated_url: true,
        },
        {
          service_id: 'svc_none',
          price_usd: null,
          price_source: null,
          networks: [],
          networks_source: 'operator',
          mainnet: null,
          provider_endpoints: 1,
          templated_url: false,
        },
        {
          service_id: 'svc_op',
          price_usd: 0.05,
          price_source: 'operator',
          networks: ['solana', 'eip155:84532'],
          networks_source: 'operator',
          mainnet: true,
          provider_endpoints: 1,
          templated_url: false,
        },
      ]);
    });
  });

  it('the networks lookup table agrees with isMainnet for every id it holds, aliases included', () => {
    const rows = networkRows();
    for (const r of rows) expect(r.mainnet, r.id).toBe(isMainnet(r.id));
    const ids = new Set(rows.map((r) => r.id));
    for (const id of ['base', 'eip155:8453', 'solana:mainnet', 'solana:devnet', 'stellar:pubnet', 'aptos:2'])
      expect(ids.has(id), id).toBe(true);
    expect(rows.find((r) => r.id === 'solana:mainnet')).toMatchObject({ mainnet: true, caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' });
  });
});
