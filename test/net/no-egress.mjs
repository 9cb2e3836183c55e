// Loopback-only guard for every test process: refuses non-loopback connects and fails the test.
//
// Loaded with `node --import` (vitest.config.ts puts it in NODE_OPTIONS, so the test workers and
// every process they spawn — CLI runs, fleet children — load it first). It sits below every client
// the code under test can use (node:http, undici, fetch, tls all connect through net.Socket), so a
// broken SSRF guard in Atlas still cannot make a packet leave this machine:
// - TCP: a connect to an IP literal off loopback is refused before any syscall; a connect by name
//   has its lookup wrapped so that an answer naming any address off loopback is refused.
// - DNS: names other than `localhost` are answered ENOTFOUND without a query (a query to the
//   system resolver is itself a packet off the machine); c-ares resolvers only ever talk to
//   127.0.0.1:9, where nothing listens.
// - UDP: a send or connect to an address off loopback throws.
// Every refusal is recorded (in this process and, when ATLAS_NO_EGRESS_LOG names a file, in that
// file, so a child's refusal reaches the parent), and test/net/setup.ts fails the test that caused it.
// Plain JavaScript on purpose: `--import` must load it before any TypeScript loader is registered.
import dgram from 'node:dgram';
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const INSTALLED = Symbol.for('atlas.noEgress.installed');
const WRAPPED = Symbol.for('atlas.noEgress.wrapped');
const VIOLATIONS = Symbol.for('atlas.noEgress.violations');

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback. Anything else (names included) is false. */
export function isLoopbackAddress(address) {
  const bare = String(address)
    .replace(/^\[|\]$/g, '')
    .split('%')[0];
  const kind = net.isIP(bare);
  if (kind === 4) return bare.split('.')[0] === '127';
  if (kind !== 6) return false;
  const canonical = new URL(`http://[${bare}]/`).hostname; // compressed, lowercase, dotted tail folded
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

export function violations() {
  return globalThis[VIOLATIONS] ?? [];
}

function refuse(kind, target) {
  const message = `no-egress: refused ${kind} to ${target} (tests may only reach loopback)`;
  const entry = { id: `${process.pid}:${violations().length}`, pid: process.pid, kind, target, stack: new Error(message).stack };
  violations().push(entry);
  const log = process.env.ATLAS_NO_EGRESS_LOG;
  if (log) {
    try {
      appendFileSync(log, `${JSON.stringify(entry)}\n`);
    } catch {
      // the in-process record stands on its own
    }
  }
  return Object.assign(new Error(message), { code: 'ATLAS_TEST_EGRESS' });
}

const notFound = (hostname) => Object.assign(new Error(`no-egress: no DNS in tests (${hostname})`), { code: 'ENOTFOUND', hostname });
const isLocalName = (hostname) => hostname === 'localhost' || hostname.endsWith('.localhost');

function install() {
  globalThis[VIOLATIONS] = [];
  const originalLookup = dns.lookup;

  // Only loopback names and IP literals reach the system resolver (which answers them from
  // /etc/hosts or without any lookup at all); every other name fails as unknown.
  function lookup(hostname, options, callback) {
    const cb = typeof options === 'function' ? options : callback;
    const opts = typeof options === 'function' ? {} : options;
    if (net.isIP(hostname) || isLocalName(hostname)) return originalLookup.call(dns, hostname, opts, cb);
    process.nextTick(() => cb(notFound(hostname)));
    return {};
  }
  dns.lookup = lookup;
  const originalPromiseLookup = dns.promises.lookup;
  dns.promises.lookup = (hostname, options) =>
    net.isIP(hostname) || isLocalName(hostname)
      ? originalPromiseLookup.call(dns.promises, hostname, options)
      : Promise.reject(notFound(hostname));

  // c-ares resolvers (dns.resolve*, new Resolver()): their servers are loopback and stay loopback.
  const quiet = ['127.0.0.1:9'];
  for (const api of [dns, dns.promises]) {
    const Base = api.Resolver;
    const baseSetServers = Base.prototype.setServers;
    Base.prototype.setServers = function setServers(servers) {
      const off = servers.find(
        (s) =>
          !isLoopbackAddress(
            String(s)
              .replace(/:\d+$/, '')
              .replace(/^\[(.*)\]$/, '$1'),
          ),
      );
      if (off !== undefined) throw refuse('DNS server', off);
      return baseSetServers.call(this, servers);
    };
    class LoopbackResolver extends Base {
      constructor(...args) {
        super(...args);
        baseSetServers.call(this, quiet);
      }
    }
    api.Resolver = LoopbackResolver;
    api.setServers(quiet);
  }

  // TCP, for every client: node:http, undici/fetch and tls all end in net.Socket#connect.
  const originalConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connect(...args) {
    const normalized = Array.isArray(args[0]) ? args[0] : net._normalizeArgs(args);
    const [options, cb] = normalized;
    if (options.path !== undefined) return originalConnect.apply(this, args); // IPC / unix socket
    const host = options.host ?? 'localhost';
    if (net.isIP(host)) {
      if (isLoopbackAddress(host)) return originalConnect.apply(this, args);
      const err = refuse('TCP connect', `${host}:${options.port}`);
      process.nextTick(() => this.destroy(err));
      return this;
    }
    const inner = options.lookup ?? dns.lookup;
    if (inner[WRAPPED]) return originalConnect.apply(this, args);
    const guarded = (hostname, dnsOptions, done) =>
      inner(hostname, dnsOptions, (err, address, family) => {
        if (err) return done(err, address, family);
        const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
        const off = list.find((a) => !isLoopbackAddress(a));
        if (off !== undefined)
          return done(refuse('TCP connect', `${hostname} → ${off}:${options.port}`), Array.isArray(address) ? [] : undefined, family);
        return done(null, address, family);
      });
    guarded[WRAPPED] = true;
    const copy = { ...options, lookup: guarded };
    return cb ? originalConnect.call(this, copy, cb) : originalConnect.call(this, copy);
  };

  // UDP: the address is the first string after the message (send) or after the port (connect).
  const checkUdp = (address) => {
    if (address === undefined || isLocalName(address)) return;
    if (!isLoopbackAddress(address)) throw refuse('UDP', address);
  };
  const originalSend = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function send(msg, ...rest) {
    checkUdp(rest.find((a) => typeof a === 'string'));
    return originalSend.call(this, msg, ...rest);
  };
  const originalUdpConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function connectUdp(port, address, ...rest) {
    checkUdp(typeof address === 'string' ? address : undefined);
    return originalUdpConnect.call(this, port, address, ...rest);
  };
}

if (!globalThis[INSTALLED]) {
  globalThis[INSTALLED] = true;
  install();
  syncBuiltinESMExports(); // `import { lookup } from 'node:dns'` sees the guarded one too
}
