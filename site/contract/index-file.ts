/**
 * Reading an index bucket file (`index/summaries/<hex>.json`, site/contract/index-record.ts): a JSON
 * array written one serialised record per line, so that a publish can copy a record's line without
 * parsing it (JSON.stringify never emits a raw newline inside a value). Pure: text in, lines or
 * values out; the one reader of the format for publish, the server and the tests.
 */

/** The serialised element on one line of such a file, or null for the brackets and blank lines. */
function arrayElement(line: string): string | null {
  if (line === '[' || line === ']' || line === '') return null;
  return line.endsWith(',') ? line.slice(0, -1) : line;
}

/** The serialised records of a bucket file's text, in file order. */
export function indexFileLines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const element = arrayElement(line);
    if (element !== null) out.push(element);
  }
  return out;
}

/** The records of a bucket file's text, parsed (not validated: the caller checks them with its schema). */
export function indexFileRecords(text: string): unknown[] {
  return indexFileLines(text).map((line) => JSON.parse(line) as unknown);
}

/** A bucket file's text for the serialised records `lines` (the inverse of indexFileLines). */
export function indexFileText(lines: readonly string[]): string {
  return `[\n${lines.join(',\n')}\n]\n`;
}

const LEADING_ID = /^\{"summary":\{"id":"([^"\\]+)"/;

/** The service id of one serialised record (read from its start when it is plain, else parsed). */
export function indexLineId(line: string): string {
  const m = LEADING_ID.exec(line);
  return m ? m[1]! : String((JSON.parse(line) as { summary: { id: unknown } }).summary.id);
}
