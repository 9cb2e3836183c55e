/** Reading Prometheus text in tests (the server's /metrics, the runs' textfiles). */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the Prometheus text format (0.0.4): every line is a `# HELP`/`# TYPE` comment
 * or `name{label="value",...} number`; every sample's family has a TYPE declared before it.
 * Throws on anything else, so a malformed exposition fails the test.
 */
export function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus text line: ${JSON.stringify(line)}`);
    const [, name = '', rawLabels = '', rawValue = ''] = m;
    const labels: Record<string, string> = {};
    const labelRe = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
    while (labelRe.lastIndex < rawLabels.length) {
      const l = labelRe.exec(rawLabels);
      if (!l) throw new Error(`bad labels in ${JSON.stringify(line)}`);
      labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, (_, ch: string) => (ch === 'n' ? '\n' : ch));
    }
    const value = rawValue === '+Inf' ? Infinity : rawValue === '-Inf' ? -Infinity : Number(rawValue);
    if (Number.isNaN(value) && rawValue !== 'NaN') throw new Error(`bad value in ${JSON.stringify(line)}`);
    const family = name.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(name) && !(types.get(family) === 'histogram')) throw new Error(`sample before its TYPE: ${line}`);
    samples.push({ name, labels, value });
  }
  return { types, samples };
}

export function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const s = samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s?.value;
}
