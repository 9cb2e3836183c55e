import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOG_FILE_RE, parseRecord, type InboxKind, type InboxRecordByKind } from '../../site/contract/inbox-records.ts';

export interface ReadResult<K extends InboxKind> {
  records: InboxRecordByKind[K][];
  /** Lines that did not parse (a torn last line after a crash, or a hand edit): skipped, counted. */
  skipped: number;
  files: string[];
}

/**
 * Every record of one kind from every replica's log in `inboxDir`, in file then line order.
 * A missing folder is an empty inbox. Invalid lines are skipped (never fatal): a crash can leave a
 * partial last line, and the appender starts a fresh line after it.
 */
export function readInbox<K extends InboxKind>(inboxDir: string, kind: K): ReadResult<K> {
  const out: ReadResult<K> = { records: [], skipped: 0, files: [] };
  if (!existsSync(inboxDir)) return out;
  const files = readdirSync(inboxDir)
    .filter((f) => LOG_FILE_RE.exec(f)?.[1] === kind)
    .sort();
  for (const f of files) {
    out.files.push(join(inboxDir, f));
    const text = readFileSync(join(inboxDir, f), 'utf8');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const rec = parseRecord(kind, line);
      if (rec) out.records.push(rec);
      else out.skipped++;
    }
  }
  return out;
}
