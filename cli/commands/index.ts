import type { Command } from 'commander';
import { register as archive } from './archive.ts';
import { register as compute } from './compute.ts';
import { register as cycle } from './cycle.ts';
import { register as demo } from './demo.ts';
import { register as docs } from './docs.ts';
import { register as exportCmd } from './export.ts';
import { register as ingest } from './ingest.ts';
import { register as init } from './init.ts';
import { register as moderate } from './moderate.ts';
import { register as probe } from './probe.ts';
import { register as publish } from './publish.ts';
import { register as report } from './report.ts';
import { register as serve } from './serve.ts';
import { register as sql } from './sql.ts';
import { register as verify } from './verify.ts';

export function registerCommands(program: Command): void {
  for (const r of [init, ingest, moderate, probe, compute, publish, report, docs, cycle, verify, serve, demo, sql, exportCmd, archive])
    r(program);
}
