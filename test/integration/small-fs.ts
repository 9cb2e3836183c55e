import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real small filesystem for disk-failure tests: a tmpfs of `sizeKb` mounted on a temporary folder
 * (needs root and mount(2), as in the dev sandbox and CI containers). `fill()` writes a filler file
 * until the kernel answers ENOSPC; `readOnly()` remounts it read-only (root ignores chmod, not a
 * read-only mount). Returns null when mounting is not possible: the caller then injects the failure
 * at the filesystem seam instead, so no test is skipped.
 */
export interface SmallFs {
  dir: string;
  fill(): void;
  unfill(): void;
  readOnly(): void;
  cleanup(): void;
}

export function smallFs(sizeKb: number): SmallFs | null {
  const dir = mkdtempSync(join(tmpdir(), 'atlas-smallfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(4096, 0x61);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
    },
    unfill() {
      unlinkSync(filler);
    },
    readOnly() {
      execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'ignore' });
    },
    cleanup() {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
