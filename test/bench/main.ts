/**
 * `npm run bench -- <name> [args]`: performance targets live here as ratios against a baseline run
 * in the same process, never as timed assertions in tests. Each benchmark module exports
 * `run(args: string[]): Promise<void>` and prints its own figures.
 */
const BENCHES = [
  'probe',
  'compute',
  'serve',
  'realdata',
  'html-text',
  'retention',
  'publish',
  'soak',
  'cycle',
  'hostile',
  'writes',
  'queue',
] as const;
type BenchName = (typeof BENCHES)[number];

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const names: BenchName[] =
    name === undefined || name === 'all' ? [...BENCHES] : BENCHES.includes(name as BenchName) ? [name as BenchName] : [];
  if (!names.length) {
    process.stderr.write(`bench: unknown benchmark ${JSON.stringify(name)}; one of ${BENCHES.join(', ')} or all\n`);
    return 2;
  }
  for (const n of names) {
    const mod = (await import(`./${n}.ts`)) as { run: (args: string[]) => Promise<void> };
    process.stdout.write(`\n== bench ${n} ==\n`);
    await mod.run(rest);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`bench: failed: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
