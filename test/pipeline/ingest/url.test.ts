import { describe, expect, it } from 'vitest';
import { comparableUrl } from '../../../pipeline/inbox/receipt-verdict.ts';
import { parseOrigins } from '../../../pipeline/ingest/well-known/origins.ts';
import { fillPlaceholders, httpHost, isTemplatedUrl, parseHttpUrl } from '../../../pipeline/ingest/url.ts';

// parseHttpUrl is the one parse guard of the URL facts; httpHost, comparableUrl and the origins file use it.
describe('parseHttpUrl and the rules built on it', () => {
  it.each([
    ['https://API.Example.com:443/a', 'https://api.example.com/a'],
    ['http://127.0.0.1:8080/x?y=1', 'http://127.0.0.1:8080/x?y=1'],
    ['ftp://example.com/', null],
    ['javascript:alert(1)', null],
    ['mailto:a@example.com', null],
    ['not a url', null],
    ['', null],
  ])('%s → %s', (input, href) => {
    expect(parseHttpUrl(input)?.href ?? null).toBe(href);
  });

  it('gives httpHost and comparableUrl the same refusals', () => {
    for (const bad of ['ftp://example.com/', 'ws://example.com/', '//example.com/', 'example.com']) {
      expect(httpHost(bad)).toBeNull();
      expect(comparableUrl(bad)).toBeNull();
    }
    expect(httpHost('https://[::1]:9/')).toBe('::1');
    expect(comparableUrl('HTTPS://Example.com:443/a/./b/#frag')).toBe('https://example.com/a/b');
  });

  it('refuses an origin of another scheme in the origins file, naming the line', () => {
    expect(parseOrigins('example.com\nhttps://b.example:8443/\n', 'origins.txt')).toEqual([
      'https://example.com',
      'https://b.example:8443',
    ]);
    expect(() => parseOrigins('ftp://example.com', 'origins.txt')).toThrow(/origins\.txt.*1/);
  });

  it('tells templated URLs and fills their placeholders', () => {
    expect(isTemplatedUrl('https://h.example:8443/v1/{city}')).toBe(true);
    expect(isTemplatedUrl('https://h.example:8443/v1/paris')).toBe(false);
    expect(fillPlaceholders('https://h.example/{a}/{b}', new Map([['a', '1']]))).toBeNull();
    expect(fillPlaceholders('https://h.example/{a}', new Map([['a', '1']]))).toBe('https://h.example/1');
  });
});
