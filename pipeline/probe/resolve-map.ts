/**
 * Static name → address map consulted before DNS, like curl's --resolve (config.probe.resolve).
 * Keys are exact hostnames or `*.suffix` wildcards; the longest matching key wins. Pure.
 * The guard still judges the mapped address unless private addresses are allowed.
 */
export type ResolveMap = Readonly<Record<string, string>>;

export function lookupStatic(map: ResolveMap, hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const exact = map[host];
  if (exact !== undefined) return exact;
  let best: { len: number; addr: string } | null = null;
  for (const [key, addr] of Object.entries(map)) {
    if (!key.startsWith('*.')) continue;
    const suffix = key.slice(1).toLowerCase(); // ".fleet.test"
    if (host.endsWith(suffix) && host.length > suffix.length && (!best || suffix.length > best.len)) best = { len: suffix.length, addr };
  }
  return best ? best.addr : null;
}

/** The same lookup with the map compiled once (the probe consults it for every connection). */
export function compileResolveMap(map: ResolveMap): (hostname: string) => string | null {
  const exact = new Map<string, string>();
  const suffixes: Array<[string, string]> = [];
  for (const [key, addr] of Object.entries(map)) {
    if (key.startsWith('*.')) suffixes.push([key.slice(1).toLowerCase(), addr]);
    else exact.set(key.toLowerCase(), addr);
  }
  suffixes.sort((a, b) => b[0].length - a[0].length);
  return (hostname) => {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    const e = exact.get(host);
    if (e !== undefined) return e;
    for (const [suffix, addr] of suffixes) if (host.endsWith(suffix) && host.length > suffix.length) return addr;
    return null;
  };
}
