import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_ENV, loadConfig } from '../../../pipeline/core/config.ts';
import { AtlasError } from '../../../pipeline/core/errors.ts';
import { loadSecret, MIN_SECRET_LENGTH } from '../../../pipeline/core/secret.ts';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';

/** The error loadConfig/loadSecret throws, as the CLI's top level would print it. */
function thrown(fn: () => unknown): AtlasError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AtlasError);
    return e as AtlasError;
  }
  throw new Error('expected a throw');
}

describe('config: environment overrides meet the same schema as the file', () => {
  it('a valid value from the environment wins over the file', () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'atlas.config.json');
      writeFileSync(file, JSON.stringify({ serve: { baseUrl: 'https://file.example' }, probe: { userAgent: 'FromFile/1' } }));
      const cfg = loadConfig(file, { ATLAS_BASE_URL: 'https://env.example/atlas', ATLAS_USER_AGENT: 'FromEnv/2' });
      expect(cfg.serve.baseUrl).toBe('https://env.example/atlas');
      expect(cfg.probe.userAgent).toBe('FromEnv/2');
      // The file's other values stay, and an empty variable counts as unset.
      expect(loadConfig(file, { ATLAS_BASE_URL: '' }).serve.baseUrl).toBe('https://file.example');
    } finally {
      t.cleanup();
    }
  });

  it.each([
    ['ATLAS_BASE_URL', 'not a url'],
    ['ATLAS_CONTACT_URL', 'mailto-less'],
    ['ATLAS_METRICS_TOKEN', 'short'],
    ['ATLAS_POSTGRES_URL', 'mysql://db.example/atlas'],
  ] as const)('an invalid %s is an error naming the variable (it used to be taken unchecked)', (name, value) => {
    const e = thrown(() => loadConfig(undefined, { [name]: value }));
    expect(e.code).toBe('invalid_input');
    expect(e.message).toMatch(new RegExp(`^${name}: `));
  });

  it('every variable lands at the path it names', () => {
    const valid: Record<keyof typeof CONFIG_ENV, string> = {
      ATLAS_USER_AGENT: 'Env/1',
      ATLAS_CONTACT_URL: 'https://env.example/contact',
      ATLAS_BASE_URL: 'https://env.example',
      ATLAS_METRICS_TOKEN: 'a-token-of-sixteen+',
      ATLAS_POSTGRES_URL: 'postgres://atlas@db.example:5432/atlas',
    };
    const cfg = loadConfig(undefined, valid) as unknown as Record<string, unknown>;
    for (const [name, path] of Object.entries(CONFIG_ENV)) {
      const at = path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], cfg);
      expect(at, name).toBe(valid[name as keyof typeof CONFIG_ENV]);
    }
  });

  it('an issue in the file still names the file, even with the environment set', () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'atlas.config.json');
      writeFileSync(file, JSON.stringify({ probe: { concurrency: 0 } }));
      const e = thrown(() => loadConfig(file, { ATLAS_BASE_URL: 'https://env.example' }));
      expect(e.message).toMatch(/atlas\.config\.json: .*probe\.concurrency/);
    } finally {
      t.cleanup();
    }
  });
});

describe('the installation secret must be long enough', () => {
  it(`an ATLAS_SECRET under ${MIN_SECRET_LENGTH} characters is an error, not silently replaced`, () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'secret');
      const e = thrown(() => loadSecret(path, { ATLAS_SECRET: 'x'.repeat(MIN_SECRET_LENGTH - 1) }));
      expect(e.code).toBe('invalid_input');
      expect(e.message).toBe(`ATLAS_SECRET: the secret must be at least ${MIN_SECRET_LENGTH} characters (it has 15)`);
      expect(loadSecret(path, { ATLAS_SECRET: 'x'.repeat(MIN_SECRET_LENGTH) })).toBe('x'.repeat(16));
    } finally {
      t.cleanup();
    }
  });

  it('a secret file cut short is an error naming the file', () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'secret');
      writeFileSync(path, 'abc\n');
      expect(thrown(() => loadSecret(path, {})).message).toMatch(/secret: the secret must be at least 16 characters \(it has 3\)$/);
    } finally {
      t.cleanup();
    }
  });

  it('the CLI exits 2 with one line on stderr for a short ATLAS_SECRET and for an invalid ATLAS_BASE_URL', async () => {
    const t = tempDir();
    try {
      for (const [env, want] of [
        [{ ATLAS_SECRET: 'tooshort' }, /^atlas: ATLAS_SECRET: the secret must be at least 16 characters/],
        [{ ATLAS_BASE_URL: 'nope' }, /ATLAS_BASE_URL: /],
      ] as const) {
        const r = await runCli(['--data', t.dir, 'init'], { env });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(want);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
