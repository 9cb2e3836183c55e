import type { Command } from 'commander';
import { migrateCluster, openCluster } from '../../pipeline/cluster/index.ts';
import { BOSS_SCHEMA, migrateQueue, PROBE_QUEUE } from '../../pipeline/probe/queue/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('init')
    .description(
      'create or migrate the database, and the cluster schema in PostgreSQL when cluster.postgres is set (running it twice changes nothing)',
    )
    .action(
      action(async (ctx) => {
        const applied = await withStore(ctx.paths.db, (s) => migrate(s, ctx.clock()));
        ctx.log.info(applied.length ? `migrated ${ctx.paths.db}: ${applied.join(', ')}` : `${ctx.paths.db} is up to date`, {
          applied: applied.length,
        });
        const url = ctx.config.cluster.postgres;
        if (url === undefined) return;
        const cluster = openCluster(url, { max: 1, applicationName: 'atlas init' });
        try {
          const done = await migrateCluster(cluster);
          ctx.log.info(
            done.length ? `migrated PostgreSQL ${cluster.where}: ${done.join(', ')}` : `PostgreSQL ${cluster.where} is up to date`,
            { applied: done.length },
          );
          // pg-boss's own schema and the probe queue, in order after ours (pipeline/probe/queue/boss.ts).
          const q = await migrateQueue(cluster);
          ctx.log.info(
            q.from === q.to
              ? `probe queue: pg-boss schema ${BOSS_SCHEMA} is up to date (version ${q.to})${q.queueCreated ? `, queue ${PROBE_QUEUE} created` : ''}`
              : `probe queue: pg-boss schema ${BOSS_SCHEMA} ${q.from === null ? 'created' : `migrated from version ${q.from}`} (version ${q.to})${q.queueCreated ? `, queue ${PROBE_QUEUE} created` : ''}`,
            { queue_schema_from: q.from, queue_schema_to: q.to, queue_created: q.queueCreated },
          );
        } finally {
          await cluster.close();
        }
      }),
    );
}
