import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileWriter } from '../../../pipeline/publish/file-writer.ts';
import { tempDir } from '../../helpers/context.ts';

const sha = (s: string) => createHash('sha256').update(Buffer.from(s)).digest('hex');

describe('FileWriter (the worker that writes and hashes a generation’s files)', () => {
  it('writes every file with its bytes and reports each size and SHA-256, across batches and under backpressure', async () => {
    const { dir, cleanup } = tempDir();
    const w = new FileWriter(dir, { batchFiles: 3, maxQueuedBytes: 100 });
    try {
      mkdirSync(join(dir, 'a'));
      const texts = Array.from({ length: 20 }, (_, i) => (i === 7 ? '' : `{"n":${i},"t":"é ${'x'.repeat(i * 13)}"}`));
      for (const [i, t] of texts.entries()) await w.put(`a/${i}.json`, t);
      await w.flush();
      expect(w.written.size).toBe(20);
      for (const [i, t] of texts.entries()) {
        expect(readFileSync(join(dir, `a/${i}.json`), 'utf8')).toBe(t);
        expect(w.written.get(`a/${i}.json`)).toEqual({ bytes: Buffer.byteLength(t), sha256: sha(t) });
      }
    } finally {
      await w.close();
      cleanup();
    }
  });

  it('a write that fails is reported by flush (or the next put), as a storage error when it is one', async () => {
    const { dir, cleanup } = tempDir();
    const w = new FileWriter(dir, { batchFiles: 1 });
    try {
      await w.put('missing/x.json', '{}'); // no such folder
      await expect(w.flush()).rejects.toThrow(/ENOENT|no such file/);
      await expect(w.put('a.json', '{}')).rejects.toThrow(/ENOENT|no such file/);
    } finally {
      await w.close();
      cleanup();
    }
  });
});
