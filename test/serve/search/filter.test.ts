import { afterEach, describe, expect, it } from 'vitest';
import { ServiceList } from '../../../site/contract/service-list.ts';
import type { ServiceSpec } from '../fixture.ts';
import { harness, type Harness } from '../harness.ts';

/*
 * The network and mainnet filters (serve/search/networks.ts), through the HTTP surface. Networks
 * are stored as CAIP-2 ids, as ingest normalizes them. Then the provider filter (filter.ts).
 */

const BASE = 'eip155:8453';
const BASE_SEPOLIA = 'eip155:84532';
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
const POLYGON = 'eip155:137';

/** A discovered x402 endpoint on `host` offering `networks`; `mainnet` as the pipeline would publish it. */
const svc = (id: string, networks: string[], mainnet: boolean | null, host = `${id.replace(/_/g, '-')}.test`): ServiceSpec => ({
  id,
  host,
  networks,
  mainnet,
});

const NETWORK_SERVICES: ServiceSpec[] = [
  svc('cand_base', [BASE], true),
  svc('cand_sepolia', [BASE_SEPOLIA], false),
  svc('cand_solana', [SOLANA], true),
  svc('cand_devnet', [SOLANA_DEVNET], false),
  svc('cand_polygon', [POLYGON, BASE_SEPOLIA], true),
  svc('cand_testmix', [BASE_SEPOLIA, SOLANA_DEVNET], false),
  svc('cand_unknown', ['eip155:999999'], false), // an id not in the known-networks table
  svc('cand_unknown_test', ['eip155:999999', BASE_SEPOLIA], false),
  svc('cand_unknown_main', ['eip155:999999', BASE], true),
  { id: 'cand_none', type: 'mcp_server', networks: [], mainnet: null },
];

let h: Harness;
afterEach(async () => {
  await h?.close();
});

async function search(qs: string) {
  const r = await h.json(`/api/v1/services?scope=index&limit=100&${qs}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const parsed = ServiceList.safeParse(r.body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return r.body as { total: number; items: { id: string; host: string; provider_endpoints: number }[] };
}
const ids = async (qs: string) => (await search(qs)).items.map((i) => i.id).sort();

describe('network filter', () => {
  it('a full CAIP-2 id matches that network only, never a longer id it prefixes', async () => {
    h = await harness({ services: NETWORK_SERVICES });
    expect(await ids(`network=${BASE}`)).toEqual(['cand_base', 'cand_unknown_main']);
    expect(await ids(`network=${BASE_SEPOLIA}`)).toEqual(['cand_polygon', 'cand_sepolia', 'cand_testmix', 'cand_unknown_test']);
    expect(await ids('network=EIP155:8453')).toEqual(['cand_base', 'cand_unknown_main']); // case-insensitive
    expect(await ids(`network=${SOLANA.toLowerCase()}`)).toEqual(['cand_solana']);
    expect(await ids('network=eip155:999999')).toEqual(['cand_unknown', 'cand_unknown_main', 'cand_unknown_test']);
    expect(await ids('network=eip155:845')).toEqual([]); // a well-formed id of no offered network
  });

  it('a v1 name or known alias matches its network exactly', async () => {
    h = await harness({ services: NETWORK_SERVICES });
    expect(await ids('network=base')).toEqual(['cand_base', 'cand_unknown_main']); // not base-sepolia
    expect(await ids('network=Base-Sepolia')).toEqual(['cand_polygon', 'cand_sepolia', 'cand_testmix', 'cand_unknown_test']);
    expect(await ids('network=solana')).toEqual(['cand_solana']); // not solana-devnet
    expect(await ids('network=solana-devnet')).toEqual(['cand_devnet', 'cand_testmix']);
    expect(await ids('network=solana:mainnet')).toEqual(['cand_solana']); // a non-standard alias
    expect(await ids('network=polygon')).toEqual(['cand_polygon']);
    expect(await ids('network=avalanche')).toEqual([]);
    expect(await ids('network=sepolia')).toEqual([]); // the v1 name of Ethereum Sepolia, not a substring of base-sepolia
  });

  it('anything else matches a case-insensitive substring of ids and names', async () => {
    h = await harness({ services: NETWORK_SERVICES });
    expect(await ids('network=SOLANA:')).toEqual(['cand_devnet', 'cand_solana', 'cand_testmix']);
    expect(await ids('network=base-sep')).toEqual(['cand_polygon', 'cand_sepolia', 'cand_testmix', 'cand_unknown_test']); // by v1 name
    expect(await ids('network=devnet')).toEqual(['cand_devnet', 'cand_testmix']);
    expect(await ids('network=8453')).toEqual([
      'cand_base',
      'cand_polygon',
      'cand_sepolia',
      'cand_testmix',
      'cand_unknown_main',
      'cand_unknown_test',
    ]);
  });
});

describe('mainnet filter: the published mainnet field, nothing recomputed', () => {
  // The fixture's values are what the pipeline publishes: true with a known mainnet, false with
  // networks but no known mainnet (an unknown id never counts as mainnet), null without networks.
  // The filter reads the published field rather than recomputing its own side from network names
  // (where unknown ids would match neither value), so cand_unknown and cand_unknown_test match false.
  it('false: exactly the services published with mainnet false', async () => {
    h = await harness({ services: NETWORK_SERVICES });
    expect(await ids('mainnet=false')).toEqual(['cand_devnet', 'cand_sepolia', 'cand_testmix', 'cand_unknown', 'cand_unknown_test']);
  });

  it('true: exactly the services published with mainnet true; null matches neither', async () => {
    h = await harness({ services: NETWORK_SERVICES });
    expect(await ids('mainnet=true')).toEqual(['cand_base', 'cand_polygon', 'cand_solana', 'cand_unknown_main']);
    const all = await ids('');
    expect(all).toContain('cand_none');
    expect([...(await ids('mainnet=true')), ...(await ids('mainnet=false'))]).not.toContain('cand_none');
  });

  it('follows the published value, not the network names', async () => {
    // A service published false although it offers a known mainnet id: the field is the rule.
    h = await harness({ services: [svc('cand_odd', [BASE], false), svc('cand_plain', [BASE], true)] });
    expect(await ids('mainnet=false')).toEqual(['cand_odd']);
    expect(await ids('mainnet=true')).toEqual(['cand_plain']);
  });
});

describe('provider: one notion of provider (the host)', () => {
  const SERVICES: ServiceSpec[] = [
    { id: 'cand_a1', host: 'search.test' },
    { id: 'cand_a2', host: 'search.test' },
    { id: 'cand_a3', host: 'search.test' },
    { id: 'cand_b1', host: 'eu.search.test' },
    { id: 'cand_b2', host: 'eu.search.test' },
    { id: 'cand_c1', host: 'other.test' },
  ];

  it('provider=h returns exactly the provider_endpoints services of host h, not its subdomains', async () => {
    h = await harness({ services: SERVICES });
    expect(await ids('provider=search.test')).toEqual(['cand_a1', 'cand_a2', 'cand_a3']);
    expect(await ids('provider=EU.Search.test')).toEqual(['cand_b1', 'cand_b2']);
    const all = await search('');
    for (const item of all.items) {
      const byProvider = await search(`provider=${item.host}`);
      expect(byProvider.total, item.host).toBe(item.provider_endpoints);
      expect(byProvider.items.every((i) => i.host === item.host)).toBe(true);
    }
  });

  it('group=provider collapses by the same host: one row per host, provider_endpoints rows behind each', async () => {
    h = await harness({ services: SERVICES });
    const grouped = await search('group=provider&sort=name');
    expect(grouped.total).toBe(3);
    expect(grouped.items.map((i) => i.host).sort()).toEqual(['eu.search.test', 'other.test', 'search.test']);
    const all = await search('');
    for (const g of grouped.items) {
      expect(all.items.filter((i) => i.host === g.host).length, g.host).toBe(g.provider_endpoints);
    }
    const one = await search('group=provider&provider=search.test');
    expect(one.total).toBe(1);
    expect(one.items[0]!.host).toBe('search.test');
  });
});
