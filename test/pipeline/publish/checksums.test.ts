import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  keyIdOf,
  parsePublicKey,
  publicKeyFromBase64,
  publicKeyInfo,
  rawPublicKey,
  signBytes,
  verifyBytes,
} from '../../../pipeline/core/signing-key.ts';
import { ChecksumEntry, Checksums } from '../../../site/contract/signing.ts';
import {
  buildChecksums,
  checksumsBytes,
  compareFiles,
  comparePaths,
  entryLine,
  entryLineFinder,
  type FoundFile,
  isChecksumEntry,
  isTreePath,
  parseChecksums,
  type ProblemKind,
} from '../../../pipeline/publish/checksums.ts';

const H = (c: string) => c.repeat(64);
const entry = (path: string, bytes = 1, sha256 = H('a')): ChecksumEntry => ({ path, bytes, sha256 });
const file = (path: string, bytes = 1, sha256 = H('a')): FoundFile => ({ path, kind: 'file', bytes, sha256 });
const other = (path: string): FoundFile => ({ path, kind: 'other', bytes: 0, sha256: null });
const build = (files: ChecksumEntry[]) =>
  buildChecksums({ generation: 'g1', createdAt: new Date('2026-11-25T12:00:00Z'), keyId: H('0'), files });

describe('isTreePath', () => {
  it.each<[string, boolean]>([
    ['manifest.json', true],
    ['api/v1/services/svc_a.json', true],
    ['.well-known/x', true],
    ['a..b/c', true],
    ['', false],
    ['/etc/passwd', false],
    ['../secret', false],
    ['api/../../x', false],
    ['api/./x', false],
    ['api//x', false],
    ['api/x/', false],
    ['api\\x', false],
    ['a\u0000b', false],
  ])('%j → %s', (p, ok) => expect(isTreePath(p)).toBe(ok));
});

describe('buildChecksums', () => {
  it('sorts by path in code-unit order and leaves out its own two files', () => {
    const c = build([
      entry('b.json'),
      entry('checksums.json'),
      entry('B.json'),
      entry('a/z.json'),
      entry('checksums.json.sig'),
      entry('a.json'),
    ]);
    expect(c.files.map((f) => f.path)).toEqual(['B.json', 'a.json', 'a/z.json', 'b.json']);
    expect(c.format).toBe('atlas-checksums/1');
    expect(c.created_at).toBe('2026-11-25T12:00:00.000Z');
  });

  it.each<[string, ChecksumEntry[], RegExp]>([
    ['a duplicate path', [entry('a.json'), entry('a.json')], /listed twice: a\.json/],
    ['a path leaving the tree', [entry('../a.json')], /not a tree path/],
    ['a bad hash', [entry('a.json', 1, 'xyz')], /sha256/],
  ])('refuses %s', (_, files, msg) => expect(() => build(files)).toThrow(msg));
});

describe('checksumsBytes (what the signature covers)', () => {
  it('is one fixed serialisation: members in order, one entry per line, final newline', () => {
    const c = build([entry('b.json', 2, H('b')), entry('a.json', 1, H('a'))]);
    expect(checksumsBytes(c).toString('utf8')).toBe(
      `{"format":"atlas-checksums/1","generation":"g1","created_at":"2026-11-25T12:00:00.000Z","key_id":"${H('0')}","files":[\n` +
        `{"path":"a.json","bytes":1,"sha256":"${H('a')}"},\n` +
        `{"path":"b.json","bytes":2,"sha256":"${H('b')}"}\n]}\n`,
    );
    expect(checksumsBytes(build([])).toString('utf8')).toMatch(/"files":\[\]\}\n$/);
  });

  it('does not depend on member order of the input and round-trips through parseChecksums', () => {
    const c = build([entry('x/é.json', 3, H('c'))]);
    const shuffled = Checksums.parse({
      files: c.files,
      key_id: c.key_id,
      created_at: c.created_at,
      generation: c.generation,
      format: c.format,
    });
    expect(checksumsBytes(shuffled).equals(checksumsBytes(c))).toBe(true);
    const parsed = parseChecksums(checksumsBytes(c));
    expect(parsed.ok && parsed.value).toEqual(c);
  });

  it.each<[string, string, RegExp]>([
    ['not JSON', '{', /not valid JSON/],
    [
      'another format',
      JSON.stringify({ format: 'other/1', generation: 'g', created_at: '2026-11-25T12:00:00Z', key_id: H('0'), files: [] }),
      /format/,
    ],
    ['an extra member', JSON.stringify({ ...build([]), extra: 1 }), /atlas-checksums\/1/],
    ['a negative size', JSON.stringify({ ...build([]), files: [{ path: 'a', bytes: -1, sha256: H('a') }] }), /files\.0\.bytes/],
  ])('parseChecksums rejects %s', (_, text, msg) => {
    const r = parseChecksums(Buffer.from(text));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(msg);
  });
});

describe('compareFiles', () => {
  const cases: [string, ChecksumEntry[], FoundFile[], [string, ProblemKind][]][] = [
    ['all match', [entry('a'), entry('b/c', 5, H('c'))], [file('a'), file('b/c', 5, H('c'))], []],
    ['nothing listed, nothing found', [], [], []],
    ['a listed file is missing', [entry('a'), entry('b')], [file('a')], [['b', 'missing']]],
    ['a file is not listed', [entry('a')], [file('a'), file('z')], [['z', 'unlisted']]],
    ['a non-regular file is not listed', [entry('a')], [file('a'), other('link')], [['link', 'unlisted']]],
    ['a listed file is a symlink', [entry('a')], [other('a')], [['a', 'not_a_file']]],
    ['sizes differ (reported once, not also as a hash)', [entry('a', 1)], [file('a', 2, H('f'))], [['a', 'size_mismatch']]],
    ['same size, other bytes', [entry('a', 1, H('a'))], [file('a', 1, H('f'))], [['a', 'hash_mismatch']]],
    ['a listed path leaves the tree', [entry('../../etc/passwd')], [], [['../../etc/passwd', 'bad_entry']]],
    ['the list lists itself', [entry('checksums.json')], [], [['checksums.json', 'bad_entry']]],
    ['a path listed twice', [entry('a'), entry('a')], [file('a')], [['a', 'duplicate_entry']]],
    ['its own files are never unlisted', [], [file('checksums.json'), file('checksums.json.sig')], []],
    [
      'several problems, sorted by path',
      [entry('m'), entry('c', 1, H('a'))],
      [file('c', 1, H('b')), file('a')],
      [
        ['a', 'unlisted'],
        ['c', 'hash_mismatch'],
        ['m', 'missing'],
      ],
    ],
  ];
  it.each(cases)('%s', (_, listed, found, want) => {
    expect(compareFiles(listed, found).map((p) => [p.path, p.problem])).toEqual(want);
  });

  it('says what is wrong in words', () => {
    const [p] = compareFiles([entry('a', 10)], [file('a', 12)]);
    expect(p!.detail).toBe('listed 10 bytes, found 12 bytes');
  });
});

describe('Ed25519 key helpers', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const info = publicKeyInfo(publicKey);

  it('names a key by the SHA-256 of its 32 raw bytes, published in base64', () => {
    const raw = rawPublicKey(publicKey);
    expect(raw.length).toBe(32);
    expect(info).toEqual({ alg: 'ed25519', key_id: keyIdOf(raw), public_key: raw.toString('base64') });
    expect(info.key_id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads the key from base64, PEM, the published key file and a /healthz body alike', () => {
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    for (const text of [info.public_key, ` ${info.public_key}\n`, pem, JSON.stringify(info), JSON.stringify({ signing_key: info })]) {
      expect(publicKeyInfo(parsePublicKey(text))).toEqual(info);
    }
  });

  it.each([
    ['too short', 'AAAA'],
    ['not base64', 'not a key!'],
    ['JSON without a key', '{"alg":"ed25519"}'],
    ['an RSA key', generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }).toString()],
  ])('refuses %s', (_, text) => expect(() => parsePublicKey(text)).toThrow());

  it('verifies only the exact bytes with the right key', () => {
    const msg = Buffer.from('checksums');
    const sig = signBytes(privateKey, msg);
    expect(verifyBytes(publicKey, msg, sig)).toBe(true);
    expect(verifyBytes(publicKey, msg, `${sig}\n`)).toBe(true);
    expect(verifyBytes(publicKey, Buffer.from('checksumS'), sig)).toBe(false);
    expect(verifyBytes(generateKeyPairSync('ed25519').publicKey, msg, sig)).toBe(false);
    expect(verifyBytes(publicKey, msg, 'garbage!')).toBe(false);
    expect(verifyBytes(publicKey, msg, '')).toBe(false);
    expect(verifyBytes(publicKeyFromBase64(info.public_key), msg, sig)).toBe(true);
  });
});

describe('the seal hot path agrees with the contract', () => {
  it('isChecksumEntry accepts exactly what ChecksumEntry accepts (for non-empty paths)', () => {
    fc.assert(
      fc.property(
        fc.record({
          path: fc.oneof(fc.string({ minLength: 1 }), fc.constant('api/v1/services/a.json')),
          bytes: fc.oneof(fc.integer(), fc.double(), fc.constant(-1), fc.constant(0), fc.constant('1' as unknown as number)),
          sha256: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string(), fc.constant(H('A'))),
        }),
        (e) => {
          expect(isChecksumEntry(e)).toBe(ChecksumEntry.safeParse(e).success);
        },
      ),
    );
  });

  it('checksumsBytes writes each entry as JSON.stringify would, whatever the characters of the path', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, unit: 'binary' }), { maxLength: 8 }), (names) => {
        const files = [...new Set(names.map((n) => `d/${n.replaceAll('/', '_')}`))].filter((p) => isTreePath(p)).map((p) => entry(p));
        const c = build(files);
        const text = checksumsBytes(c).toString('utf8');
        for (const f of c.files)
          expect(text).toContain(`{"path":${JSON.stringify(f.path)},"bytes":1,"sha256":${JSON.stringify(f.sha256)}}`);
        expect(Checksums.parse(JSON.parse(text))).toEqual(c);
      }),
    );
  }, 60_000);

  it('buildChecksums refuses an entry that is not a size and a SHA-256', () => {
    expect(() => build([entry('a.json', -1)])).toThrow(/not a size and SHA-256/);
    expect(() => build([entry('a.json', 1, H('A'))])).toThrow(/not a size and SHA-256/);
  });
});

describe('entryLineFinder (the lines the next seal reuses)', () => {
  /** What the finder gives for `paths`, asked in increasing path order. */
  const findAll = (text: string, paths: string[]) => {
    const find = entryLineFinder(text);
    return new Map([...paths].sort(comparePaths).map((p) => [p, find(p)] as const));
  };

  it('finds every entry of a list as entryLine writes it, and nothing for a path not listed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1, unit: 'binary' }), fc.nat({ max: 2 ** 40 }), fc.boolean()), { maxLength: 10 }),
        (named) => {
          const byPath = new Map(named.map(([n, b, listed]) => [`d/${n.replaceAll('/', '_')}`, [b, listed] as const]));
          const paths = [...byPath.keys()].filter((p) => isTreePath(p));
          const files = paths.filter((p) => byPath.get(p)![1]).map((p) => entry(p, byPath.get(p)![0], H('c')));
          const got = findAll(checksumsBytes(build(files)).toString('utf8'), paths);
          const listed = new Map(files.map((f) => [f.path, entryLine(f)]));
          for (const p of paths) expect(got.get(p)).toBe(listed.get(p));
        },
      ),
    );
  });

  it('passes over a line that is not a canonical entry (its file is hashed again)', () => {
    const ok = entryLine(entry('a/ok.json', 7, H('1')));
    const text = [
      '{"format":"x","files":[',
      `{"path":"../up.json","bytes":7,"sha256":"${H('4')}"},`,
      `{"path":"a/e\\u0301.json","bytes":7,"sha256":"${H('5')}"},`,
      `{"path":"a/neg.json","bytes":-1,"sha256":"${H('3')}"},`,
      `${ok},`,
      `{"path":"a/torn.json","bytes":7,"sha`,
      `{"path":"a/upper.json","bytes":7,"sha256":"${H('A')}"},`,
      `{"path":"a/zero.json","bytes":007,"sha256":"${H('2')}"}`,
      ']}',
    ].join('\n');
    const paths = ['a/e\u0301.json', 'a/neg.json', 'a/ok.json', 'a/torn.json', 'a/upper.json', 'a/zero.json'];
    const got = findAll(text, paths);
    // The escaped path is parsed and written again as entryLine writes it (the character itself, no escape).
    expect([...got].filter(([, l]) => l !== undefined).map(([p]) => p)).toEqual(['a/e\u0301.json', 'a/ok.json']);
    expect(got.get('a/ok.json')).toBe(ok);
    expect(got.get('a/e\u0301.json')).toBe(entryLine(entry('a/e\u0301.json', 7, H('5'))));
  });

  it('finds nothing it has passed: the paths must come in order', () => {
    const text = checksumsBytes(build([entry('a.json'), entry('b.json'), entry('c.json')])).toString('utf8');
    const find = entryLineFinder(text);
    expect(find('b.json')).toBe(entryLine(entry('b.json')));
    expect(find('a.json')).toBeUndefined();
    expect(find('c.json')).toBe(entryLine(entry('c.json')));
  });
});
