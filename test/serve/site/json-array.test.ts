import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AtlasError } from '../../../pipeline/core/errors.ts';
import { forEachArrayElement } from '../../../serve/site/json-array.ts';
import { tempDir } from '../../helpers/context.ts';

const tmp = tempDir('atlas-json-array-');
afterAll(() => tmp.cleanup());
let fileNo = 0;

async function elements(text: string, chunkBytes: number): Promise<unknown[]> {
  const path = join(tmp.dir, `f${fileNo++}.json`);
  writeFileSync(path, text);
  const out: unknown[] = [];
  const n = await forEachArrayElement(
    path,
    (v, i) => {
      expect(i).toBe(out.length);
      out.push(v);
    },
    chunkBytes,
  );
  expect(n).toBe(out.length);
  return out;
}

describe('forEachArrayElement (index records parsed one at a time)', () => {
  it('gives exactly what JSON.parse of the whole file gives, for any array and any chunk size', async () => {
    // Strings with quotes, backslashes, brackets, commas and multi-byte characters, split anywhere.
    const tricky = fc.constantFrom('"', '\\', '\\\\"', '[', ']', '{', '}', ',', 'é', '😀', '\u0000', '\\u0022');
    const str = fc.array(fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 6 }).map((a) => a.join(''));
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        str,
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(str, tie('v'), { maxKeys: 3 }),
      ),
    })).v;
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 6 }), fc.integer({ min: 1, max: 9 }), fc.boolean(), async (arr, chunk, pretty) => {
        const text = pretty ? JSON.stringify(arr, null, 2) : JSON.stringify(arr);
        expect(await elements(text, chunk)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts surrounding whitespace and the empty array', async () => {
    expect(await elements(' \n[ ]\n', 2)).toEqual([]);
    expect(await elements('[1, "a" ,{"b":[2]}]\n', 3)).toEqual([1, 'a', { b: [2] }]);
  });

  it.each([
    ['', 'empty file'],
    ['{"a":1}', 'an object'],
    ['[1,2', 'truncated'],
    ['[1,,2]', 'an empty slot'],
    ['[1,]', 'a trailing comma'],
    ['[,1]', 'a leading comma'],
    ['[1] x', 'data after the array'],
    ['[{"a":}]', 'a malformed element'],
  ])('rejects %j (%s) as invalid input', async (text) => {
    await expect(elements(text, 4)).rejects.toBeInstanceOf(AtlasError);
  });
});
