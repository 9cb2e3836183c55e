import { spawnSync } from 'node:child_process';
import { lookup } from 'node:dns';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { safeFetch } from '../../pipeline/probe/index.ts';
import { takeRefusals } from './setup.ts';

/**
 * The loopback-only guard itself (test/net/no-egress.mjs). Every address off loopback below is
 * refused by that guard before any socket opens, so these tests send nothing off the machine even
 * though they aim at 10.0.0.1 and a public address on purpose. Each test takes its refusals, so the
 * per-test check in setup.ts does not count them as leaks.
 */
const refusedBy = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: NodeJS.ErrnoException) => e.code ?? e.message,
  );

describe('no-egress: tests can reach loopback and nothing else', () => {
  afterEach(() => {
    takeRefusals();
  });

  it('refuses a TCP connect to a private or public IP literal, and records it', async () => {
    for (const host of ['10.0.0.1', '93.184.216.34', '::ffff:10.0.0.1', '2001:4860:4860::8888']) {
      const code = await new Promise((resolve) =>
        connect({ host, port: 80 })
          .on('error', (e: NodeJS.ErrnoException) => resolve(e.code))
          .on('connect', () => resolve('connected')),
      );
      expect(code).toBe('ATLAS_TEST_EGRESS');
    }
    expect(takeRefusals().map((v) => v.target)).toEqual([
      '10.0.0.1:80',
      '93.184.216.34:80',
      '::ffff:10.0.0.1:80',
      '2001:4860:4860::8888:80',
    ]);
  });

  it('refuses a name whose lookup answers a public address (undici with its own lookup)', async () => {
    const { Agent } = await import('undici');
    const agent = new Agent({
      connect: {
        lookup: ((_h: string, _o: unknown, cb: (e: null, a: string, f: number) => void) => cb(null, '93.184.216.34', 4)) as never,
      },
    });
    try {
      const code = await refusedBy(request('http://public.example/', { dispatcher: agent }));
      expect(code).toBe('ATLAS_TEST_EGRESS');
    } finally {
      await agent.close();
    }
    expect(takeRefusals()).toHaveLength(1);
  });

  it('answers names other than localhost as unknown without asking any DNS server', async () => {
    const code = await new Promise((resolve) => lookup('example.com', (err) => resolve(err?.code ?? 'resolved')));
    expect(code).toBe('ENOTFOUND');
    expect(await refusedBy(fetch('http://example.com/'))).not.toBeNull();
  });

  it('lets loopback through: 127.0.0.1, ::1 and localhost', async () => {
    const srv = createServer((_q, r) => r.end('ok'));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const { port } = srv.address() as AddressInfo;
      expect(await (await request(`http://127.0.0.1:${port}/`)).body.text()).toBe('ok');
      expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe('ok');
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
    expect(takeRefusals()).toEqual([]);
  });

  it('with the SSRF guard switched off, safeFetch to 10.0.0.1 still sends nothing and the refusal is recorded', async () => {
    const r = await safeFetch(
      { url: 'http://10.0.0.1/admin', method: 'GET', headers: {} },
      { timeoutMs: 500, maxBodyBytes: 1024, maxHeaderBytes: 16_384, allowPrivate: true, resolveMap: {} },
    );
    expect(r.ok).toBe(false);
    expect(takeRefusals().map((v) => v.target)).toEqual(['10.0.0.1:80']);
  });

  it('child processes load the guard too, and their refusals reach this test', () => {
    const out = spawnSync(process.execPath, ['-e', "require('net').connect(80,'10.0.0.1').on('error',e=>{console.log(e.code)})"], {
      encoding: 'utf8',
      env: process.env,
    });
    expect(out.stdout.trim()).toBe('ATLAS_TEST_EGRESS');
    expect(takeRefusals().map((v) => v.target)).toEqual(['10.0.0.1:80']);
  });
});
