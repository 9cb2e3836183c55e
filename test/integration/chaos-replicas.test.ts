import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateCluster, openCluster } from '../../pipeline/cluster/index.ts';
import { mulberry32 } from '../../pipeline/fleet/prng.ts';
import { openStore } from '../../pipeline/store/store.ts';
import { chaosSeed, replayable } from '../helpers/chaos-seed.ts';
import { runCliInProcess } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';
import { postgresGate, useTestPostgres } from '../helpers/postgres.ts';
import {
  BURSTS,
  checkReplicaInvariants,
  replicaClient,
  replicaServeConfig,
  restartStep,
  runBursts,
  startReplicas,
} from './replica-chaos.ts';

/**
 * Chaos on the replica side of the cluster (issue 26): three real `atlas serve` processes with
 * `cluster.postgres` in their config, one seeded client sending keys, outcome reports (a share of
 * them repeats, sent to another replica) and feedback in small concurrent bursts; replicas SIGKILLed
 * at seeded points (mid-burst) and restarted; PostgreSQL stopped and started once mid-run. Then
 * `atlas ingest inbox`, and the invariants of replica-chaos.ts (every 201 once in DuckDB, no report
 * twice, no day limit exceeded). chaos-cluster.test.ts runs the same with probe workers beside.
 *
 * ATLAS_CHAOS_SEED: see chaosSeed. The seed and the counts are printed on one line.
 */
const SEED = chaosSeed();
const NOW = '2026-11-25T12:00:00Z';
const KILLS = 2;

const gate = postgresGate('replica chaos on PostgreSQL');

describe.skipIf(!gate.present)('replica chaos on PostgreSQL', () => {
  const pg = useTestPostgres();

  it('kills and a PostgreSQL restart lose no 201, double no report, exceed no limit', async () => {
    const rnd = mulberry32(SEED);
    const url = await pg.database();
    const cluster = openCluster(url);
    await migrateCluster(cluster);
    await cluster.close();

    const tmp = tempDir('atlas-chaos-replicas-');
    const config = join(tmp.dir, 'atlas.config.json');
    writeFileSync(config, JSON.stringify({ cluster: { postgres: url }, serve: replicaServeConfig() }));
    const replicas = await startReplicas(tmp.dir, config, NOW);
    const client = replicaClient(rnd, replicas.servers);
    const killAt = new Set<number>();
    while (killAt.size < KILLS) killAt.add(1 + Math.floor(rnd() * (BURSTS - 2)));
    const later = [...Array(BURSTS).keys()].filter((b) => !killAt.has(b) && b > 0);
    const outageAt = later[Math.floor(rnd() * later.length)]!;

    await runBursts(rnd, client, replicas, { replicaKills: killAt, steps: new Map([[outageAt, restartStep(pg, client)]]) });

    const ingest = await runCliInProcess(['--data', tmp.dir, '--config', config, '--now', NOW, 'ingest', 'inbox']);
    expect(ingest.code, ingest.stderr).toBe(0);
    const store = await openStore(join(tmp.dir, 'atlas.duckdb'), { readOnly: true });
    try {
      const counts = await replayable('chaos replicas', SEED, () => checkReplicaInvariants(store, client.sent));
      console.log(`chaos replicas: seed ${SEED}: ${replicas.kills} replicas SIGKILLed, PostgreSQL restarted once; ${counts}`);
    } finally {
      store.close();
      tmp.cleanup();
    }
  }, 90_000);
});
