import { open } from 'node:fs/promises';
import { AtlasError } from '../../pipeline/core/errors.ts';

/** JSON's structural characters as code units. */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Parse a file holding one JSON array element by element: `onElement` gets each element parsed
 * (with `JSON.parse`, so the values are exactly what parsing the whole file gives) and its position.
 * Memory stays at one read chunk plus one element's text, instead of the whole file as a string
 * plus every element as an object at once: the server's loader reads every bucket of a generation
 * this way, because reading each whole (even small buckets) leaves its resident memory after a load
 * well above its retained heap (V8 keeps the heap it grew to; docs/performance.md, serve).
 * The scan works on UTF-8 bytes: the structural characters are ASCII, and no byte of a multi-byte
 * character is ASCII, so a chunk boundary inside a character is harmless (pieces are joined before
 * decoding). Throws `invalid_input` when the file is not one JSON array. Returns the element count.
 */
export async function forEachArrayElement(
  path: string,
  onElement: (value: unknown, index: number) => void,
  chunkBytes = 1 << 20,
): Promise<number> {
  const fh = await open(path, 'r');
  const fail = (why: string): never => {
    throw new AtlasError('invalid_input', `${path}: ${why}`);
  };
  let started = false; // after the opening '['
  let ended = false; // after the closing ']'
  let depth = 0; // nesting inside the current element
  let inString = false;
  let pieces: Buffer[] = []; // the current element's bytes from earlier chunks
  let count = 0;
  const emit = (text: string, closing: boolean): void => {
    if (text.trim() === '') {
      // `[]` has no element; an empty slot (`[,1]`, `[1,,2]`, `[1,]`) is malformed.
      if (closing && count === 0) return;
      fail('malformed JSON array (empty element)');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      fail(`element ${count}: ${(e as Error).message}`);
    }
    onElement(value, count++);
  };
  try {
    const buf = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      let i = 0;
      let from = 0; // where the current element's bytes start in this chunk
      if (!started) {
        while (i < bytesRead && isSpace(buf[i]!)) i++;
        if (i === bytesRead) continue;
        if (buf[i] !== OPEN_ARRAY) fail('not a JSON array');
        started = true;
        from = ++i;
      }
      while (i < bytesRead) {
        if (ended) {
          if (!isSpace(buf[i]!)) fail('data after the closing bracket');
          i++;
          continue;
        }
        if (inString) {
          // Jump to the next quote; it closes the string unless escaped by an odd run of backslashes.
          const q = buf.indexOf(QUOTE, i);
          if (q < 0 || q >= bytesRead) {
            i = bytesRead;
            break;
          }
          let k = q - 1;
          let slashes = 0;
          while (k >= from && buf[k] === BACKSLASH) {
            slashes++;
            k--;
          }
          if (k < from) slashes += trailingBackslashes(pieces);
          if (slashes % 2 === 0) inString = false;
          i = q + 1;
          continue;
        }
        const b = buf[i]!;
        if (b === QUOTE) inString = true;
        else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
        else if (b === CLOSE_OBJECT || (b === CLOSE_ARRAY && depth > 0)) depth--;
        else if (depth === 0 && (b === COMMA || b === CLOSE_ARRAY)) {
          const own = buf.subarray(from, i);
          emit(pieces.length ? Buffer.concat([...pieces, own]).toString('utf8') : own.toString('utf8'), b === CLOSE_ARRAY);
          pieces = [];
          if (b === CLOSE_ARRAY) ended = true;
          from = i + 1;
        }
        i++;
      }
      if (!ended && from < bytesRead) pieces.push(Buffer.from(buf.subarray(from, bytesRead)));
    }
  } finally {
    await fh.close();
  }
  if (!started) fail('not a JSON array (empty file)');
  if (!ended) fail('truncated JSON array');
  return count;
}

/** Backslashes at the very end of the earlier pieces (an escape split across chunks). */
function trailingBackslashes(pieces: Buffer[]): number {
  let n = 0;
  for (let p = pieces.length - 1; p >= 0; p--) {
    const piece = pieces[p]!;
    for (let k = piece.length - 1; k >= 0; k--) {
      if (piece[k] !== BACKSLASH) return n;
      n++;
    }
  }
  return n;
}
