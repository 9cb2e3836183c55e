import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFleetListings, type Fleet } from '../../pipeline/fleet/index.ts';

/**
 * Reviewed listing files of the demo world, written into the demo's own folder (never data/listings):
 * the fleet's listings (x402 endpoints and MCP servers with documentation pages) plus one task
 * marketplace on a fleet website, so every entry type appears. All approved at the start of history.
 */
export function writeDemoListings(fleet: Fleet, dir: string, approvedAt: Date): string[] {
  const written = writeFleetListings(fleet, dir, { approvedAt }).map((l) => l.id);
  const site = fleet.endpoints.find((e) => e.behaviour === 'mcp-website');
  const doc = fleet.docs[0];
  if (site && doc) {
    const listing = {
      id: 'svc_fleet-taskboard',
      name: 'Fleet Taskboard',
      type: 'task_marketplace',
      protocol: 'none',
      operator: 'Fleet Test Operator',
      category: 'marketplace',
      tags: ['fleet', 'tasks'],
      description: 'Simulated task marketplace of the demo fleet: agents find and post paid tasks.',
      operations: [
        { id: 'primary', kind: 'call', primary: true, url: site.url, method: 'GET', expected_statuses: [200], interval: 'hourly' },
      ],
      documentation_urls: [],
      // Sourced to the fleet's own website, checked on the day of approval (an active listing sources its fields).
      sources: {
        operator: { source_url: site.url, checked_at: approvedAt.toISOString().slice(0, 10) },
        endpoint: { source_url: site.url, checked_at: approvedAt.toISOString().slice(0, 10) },
      },
      claims: {},
      approved_at: approvedAt.toISOString(),
      active: true,
    };
    writeFileSync(join(dir, 'fleet-taskboard.json'), `${JSON.stringify(listing, null, 2)}\n`);
    written.push(listing.id);
  }
  return written;
}
