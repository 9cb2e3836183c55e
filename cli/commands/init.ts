import type { Command } from 'commander';
import { migrateCluster, openCluster } from '../../pipeline/cluster/index.ts';
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
        } finally {
          await cluster.close();
        }
      }),
    );
}
