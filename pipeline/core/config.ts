import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { AtlasError, formatIssues } from './errors.ts';
import { DEFAULT_BASE_URL } from '../../site/contract/common.ts';
import { CYCLE_MINUTES, DEFAULT_CYCLE_MINUTES } from '../../site/contract/run-windows.ts';
import { DEFAULT_LISTINGS_DIR } from './paths.ts';
import { SPREAD_STEPS_MINUTES } from './slots.ts';

/**
 * atlas.config.json. Every value has a default, so an absent file is a valid configuration.
 * Registry sources are operator configuration (trusted location, untrusted content): a URL of the
 * list endpoint or a file path.
 */
export const RegistrySourceSchema = z.object({
  kind: z.enum(['x402', 'mcp']),
  /** Full URL of `.../discovery/resources` or `.../v0.1/servers`, or a file path. */
  source: z.string().min(1),
  /** Name recorded with each resource (e.g. `cdp`, `official`). */
  name: z
    .string()
    .min(1)
    .max(40)
    .regex(/^[a-z0-9-]+$/),
  enabled: z.boolean().default(true),
});

export const RateLimitsSchema = z.object({
  enabled: z.boolean().default(true),
  anonymousPerMinute: z.number().int().positive().default(60),
  keyedPerMinute: z.number().int().positive().default(600),
  keysPerAddressPerDay: z.number().int().positive().default(3),
  feedbackPerAddressPerDay: z.number().int().positive().default(10),
});

export const ConfigSchema = z
  .object({
    registries: z.array(RegistrySourceSchema).default([
      { kind: 'x402', source: 'https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources', name: 'cdp', enabled: true },
      { kind: 'mcp', source: 'https://registry.modelcontextprotocol.io/v0.1/servers', name: 'official', enabled: true },
    ]),
    probe: z
      .object({
        concurrency: z.number().int().min(1).max(1024).default(64),
        perHost: z.number().int().min(1).max(16).default(2),
        timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
        maxBodyBytes: z
          .number()
          .int()
          .min(1024)
          .default(256 * 1024),
        maxHeaderBytes: z
          .number()
          .int()
          .min(16 * 1024)
          .default(128 * 1024),
        userAgent: z.string().min(1).default('AtlasProbe/0.1'),
        contactUrl: z.string().url().default('https://atlas.example/about/probe'),
        allowPrivate: z.boolean().default(false),
        /**
         * Static name → address map consulted before DNS, like curl's --resolve. Keys are exact
         * hostnames or `*.suffix` wildcards. For tests and the demo (`*.fleet.test` → 127.0.0.1);
         * the private-address guard still applies to the mapped address unless allowPrivate is set.
         */
        resolve: z.record(z.string(), z.string()).default({}),
        /**
         * Spread of due checks inside their slots, in minutes: the cadence the probe runs at (5 for
         * `atlas cycle` every five minutes from cron). Each operation falls due at a fixed offset of
         * its slot (macro atlas_due_offset_ms, pipeline/store/rules.sql), so daily checks are not all due at 00:00.
         * 0 (the default): due at the slot start, for a probe run less often than every few minutes
         * (an hourly cron, the demo's hourly cycles). Must divide 60.
         */
        spreadMinutes: z
          .number()
          .int()
          .refine((m) => (SPREAD_STEPS_MINUTES as readonly number[]).includes(m), 'must be 0 or divide 60')
          .default(0),
      })
      .prefault({}),
    cycle: z
      .object({
        /**
         * How often cron runs `atlas cycle`, in minutes (default 5): the cadence the status windows
         * expect of the jobs every cycle runs (site/contract/run-windows.ts, JOB_CADENCE), so a cron
         * that runs less often shows as missed slots. Must divide 60.
         */
        everyMinutes: z
          .number()
          .int()
          .refine((m) => (CYCLE_MINUTES as readonly number[]).includes(m), 'must divide 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60)')
          .default(DEFAULT_CYCLE_MINUTES),
      })
      .strict()
      .prefault({}),
    serve: z
      .object({
        port: z.number().int().min(0).max(65535).default(8787),
        host: z.string().default('127.0.0.1'),
        /** Honour X-Forwarded-For only behind a proxy we trust. */
        trustProxy: z.boolean().default(false),
        /**
         * Public origin of this instance (scheme, host, optional path), for absolute links in what
         * agents fetch on their own: /llms.txt, /server.json, badge snippets, the MCP instructions.
         * Unset: API `links` stay relative, and those documents use DEFAULT_BASE_URL (publicBaseUrl).
         */
        baseUrl: z.string().url().optional(),
        /** Name of this instance in the MCP registry's reverse-DNS form (server.json `name`). */
        registryName: z
          .string()
          .min(3)
          .max(200)
          .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)
          .default('io.github.atlas-directory/atlas'),
        bodyLimitBytes: z
          .number()
          .int()
          .positive()
          .default(16 * 1024),
        rateLimits: RateLimitsSchema.prefault({}),
        /**
         * GET /metrics (docs/operations.md "Metrics"): on by default, open like most exporters; set `token` (or
         * ATLAS_METRICS_TOKEN) when the port is reachable by others, or `enabled: false` to drop it.
         */
        metrics: z
          .object({
            enabled: z.boolean().default(true),
            /** When set, a scrape must send `Authorization: Bearer <token>`. */
            token: z.string().min(16).optional(),
          })
          .prefault({}),
      })
      .prefault({}),
    /**
     * Several machines (docs/notes/cluster.md): `postgres` is a connection string. Absent (the
     * default), Atlas runs on one machine with no PostgreSQL anywhere; present, the replicas' writes
     * and the probe job queue live there, and `atlas init` creates or migrates its schema.
     */
    cluster: z
      .object({
        postgres: z
          .string()
          .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// connection string')
          .optional(),
      })
      .strict()
      .prefault({}),
    paths: z
      .object({
        /** Runtime state; the CLI's --data wins over this. */
        data: z.string().default('data'),
        /**
         * Folder of reviewed listing files read by `atlas cycle` and `atlas ingest listings` (whose
         * --dir wins over this). Absolute, or relative to the project root: a tracked input of the
         * checkout, whatever --data says.
         */
        listings: z.string().min(1).default(DEFAULT_LISTINGS_DIR),
      })
      .prefault({}),
  })
  .strict();
export type Config = z.infer<typeof ConfigSchema>;

export function parseConfig(raw: unknown, origin = 'config'): Config {
  const r = ConfigSchema.safeParse(raw);
  if (!r.success) throw new AtlasError('invalid_input', `${origin}: ${formatIssues(r.error.issues)}`);
  return r.data;
}

/**
 * Environment variables that set a config value, with the value's path in the file's shape. They
 * are merged into the file's object before it is parsed, so a value from the environment meets the
 * same schema as one from the file (an invalid one is an error naming the variable, never ignored).
 * ATLAS_SECRET is not config: secret.ts reads it.
 */
export const CONFIG_ENV = {
  ATLAS_USER_AGENT: ['probe', 'userAgent'],
  ATLAS_CONTACT_URL: ['probe', 'contactUrl'],
  ATLAS_BASE_URL: ['serve', 'baseUrl'],
  ATLAS_METRICS_TOKEN: ['serve', 'metrics', 'token'],
  ATLAS_POSTGRES_URL: ['cluster', 'postgres'],
} as const satisfies Record<string, readonly string[]>;

/** `raw` with each set (non-empty) CONFIG_ENV variable written at its path; `raw` is not modified. */
export function withEnvOverrides(raw: unknown, env: NodeJS.ProcessEnv): { merged: unknown; fromEnv: Map<string, string> } {
  const fromEnv = new Map<string, string>();
  let merged: unknown = raw;
  for (const [name, path] of Object.entries(CONFIG_ENV)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    merged = setAt(merged, path, value);
    fromEnv.set(path.join('.'), name);
  }
  return { merged, fromEnv };
}

function setAt(obj: unknown, path: readonly string[], value: string): unknown {
  const [head, ...rest] = path as [string, ...string[]];
  const base = obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? (obj as Record<string, unknown>) : {};
  return { ...base, [head]: rest.length ? setAt(base[head], rest, value) : value };
}

/**
 * Load the config file: an explicit path must exist; the default `./atlas.config.json` is optional.
 * Environment overrides (CONFIG_ENV) are validated with the file; an issue in a value that came
 * from the environment names the variable instead of the file.
 */
export function loadConfig(path: string | undefined, env: NodeJS.ProcessEnv = process.env): Config {
  let raw: unknown = {};
  const file = path ?? 'atlas.config.json';
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new AtlasError('invalid_input', `${file}: not valid JSON (${(e as Error).message})`);
    }
  } else if (path) {
    throw new AtlasError('invalid_input', `config file not found: ${path}`);
  }
  const { merged, fromEnv } = withEnvOverrides(raw, env);
  const r = ConfigSchema.safeParse(merged);
  if (r.success) return r.data;
  const envIssues = r.error.issues.filter((i) => fromEnv.has(i.path.join('.')));
  if (envIssues.length) {
    const [first] = envIssues;
    throw new AtlasError('invalid_input', `${fromEnv.get(first!.path.join('.'))}: ${first!.message}`);
  }
  throw new AtlasError('invalid_input', `${file}: ${formatIssues(r.error.issues)}`);
}

/**
 * The instance's public base URL without a trailing slash: `serve.baseUrl` when configured, else
 * DEFAULT_BASE_URL. Serve and publish both build absolute links from this one value.
 */
export function publicBaseUrl(config: Pick<Config, 'serve'>): string {
  return (config.serve.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
}

export const defaultConfig = (): Config => parseConfig({});
