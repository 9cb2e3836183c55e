/**
 * Log lines go to stderr so stdout stays for results (`atlas sql`, JSON output).
 * `--json` turns each line into one JSON object.
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  readonly json: boolean;
}

export function createLogger(opts: { json?: boolean; quiet?: boolean; write?: (line: string) => void } = {}): Logger {
  const write = opts.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const emit = (level: string, msg: string, fields?: Record<string, unknown>) => {
    if (opts.quiet && level === 'info') return;
    if (opts.json) write(JSON.stringify({ level, msg, ...fields }));
    else {
      const extra =
        fields && Object.keys(fields).length
          ? ` ${Object.entries(fields)
              .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
              .join(' ')}`
          : '';
      write(`${level === 'info' ? '' : `${level}: `}${msg}${extra}`);
    }
  };
  return {
    json: !!opts.json,
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

export const silentLogger: Logger = { json: false, info() {}, warn() {}, error() {} };
