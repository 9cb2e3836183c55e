import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { ListingSchema } from '../ingest/listings/schema.ts';
import type { Fleet } from './types.ts';

/**
 * Reviewed listing files (pipeline/ingest/listings format) for the fleet services that have a
 * documentation page, so the demo and tests can run `atlas ingest listings --dir <dir>` against the
 * fleet. Each file has a primary call (x402 → expected [402]; MCP → [400, 405, 406]) and a daily
 * documentation operation on docs.fleet.test; every statement is sourced to that page. Every file is validated with ListingSchema before it is
 * written, so a change of the listing format fails here first.
 */
export type ListingInput = z.input<typeof ListingSchema>;

export interface FleetListing {
  id: string;
  file: string;
  /** Fleet endpoint of the primary operation and the documentation page name. */
  endpoint: string;
  doc: string;
}

export function fleetListings(fleet: Fleet, opts: { approvedAt?: Date } = {}): Array<{ listing: ListingInput; meta: FleetListing }> {
  const approved = (opts.approvedAt ?? new Date(fleet.epoch.getTime() - 7 * 86_400_000)).toISOString();
  // The fleet's documentation page is the source of every claim, checked on the day of approval.
  const checked = approved.slice(0, 10);
  return fleet.docs.map((doc) => {
    const ep = fleet.endpoints.find((e) => e.name === docService(fleet, doc.name));
    if (!ep) throw new Error(`fleet: documentation page ${doc.name} documents no endpoint`);
    const slug = `fleet-${doc.name}`;
    const x402 = ep.protocol === 'x402';
    const listing: ListingInput = {
      id: `svc_${slug}`,
      name: `Fleet ${doc.name[0]!.toUpperCase()}${doc.name.slice(1)} ${x402 ? 'API' : 'MCP server'}`,
      type: x402 ? 'api_endpoint' : 'mcp_server',
      operator: 'Fleet Test Operator',
      category: x402 ? 'data' : 'developer-tools',
      tags: ['fleet', x402 ? 'x402' : 'mcp'],
      description: `Simulated ${x402 ? 'x402 endpoint' : 'MCP server'} of the test fleet (${ep.behaviour}).`,
      operations: [
        {
          id: 'primary',
          kind: 'call',
          primary: true,
          url: ep.url,
          method: ep.method,
          expected_statuses: x402 ? [402] : [400, 405, 406],
          interval: 'hourly',
        },
        { id: 'docs', kind: 'documentation', primary: false, url: doc.url, method: 'GET', expected_statuses: [200], interval: 'daily' },
      ],
      documentation_urls: [doc.url],
      sources: {
        operator: { source_url: doc.url, checked_at: checked },
        endpoint: { source_url: doc.url, checked_at: checked },
        documentation: { source_url: doc.url, checked_at: checked },
      },
      claims: x402
        ? {
            price_usd: { value: 0.01, source_url: doc.url, checked_at: checked, note: 'per call, as the documentation states' },
            networks: { value: ['base'], source_url: doc.url, checked_at: checked },
            access: { value: 'x402 payment, no API key', source_url: doc.url, checked_at: checked },
          }
        : { access: { value: 'no authentication', source_url: doc.url, checked_at: checked } },
      approved_at: approved,
      active: true,
    };
    ListingSchema.parse(listing);
    return { listing, meta: { id: listing.id, file: `${slug}.json`, endpoint: ep.name, doc: doc.name } };
  });
}

/** Write the listing files into `dir` (created if missing) and remember it as fleet.listingsDir. */
export function writeFleetListings(fleet: Fleet, dir: string, opts: { approvedAt?: Date } = {}): FleetListing[] {
  mkdirSync(dir, { recursive: true });
  const out = fleetListings(fleet, opts);
  for (const { listing, meta } of out) writeFileSync(join(dir, meta.file), `${JSON.stringify(listing, null, 2)}\n`);
  fleet.listingsDir = dir;
  return out.map((o) => o.meta);
}

function docService(fleet: Fleet, docName: string): string {
  const d = fleet.docs.find((x) => x.name === docName);
  if (!d) throw new Error(`fleet: no documentation page ${docName}`);
  return d.service;
}
