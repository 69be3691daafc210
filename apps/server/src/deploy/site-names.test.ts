import { describe, expect, it } from 'vitest';
import { certName, renderServerNamesTuning, serverNamesBucketSize, sitePaths } from './site-names';
import { DeployValidationError } from './validate';

const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;

/** A valid domain of exactly `length` characters, labels at most 63. */
function domainOfLength(length: number): string {
  let head = '';
  while (head.length < length - 8) head += `${'a'.repeat(63)}.`;
  head = head.slice(0, length - 8);
  // Never end on a dot (an empty label): move one label break to the front instead.
  if (head.endsWith('.')) head = `b.${head.slice(0, -2)}`;
  return `${head}.example`;
}

describe('sitePaths', () => {
  it('Debian: sites-available file and a sites-enabled link', () => {
    expect(sitePaths('debian', 'app.example.com')).toEqual({
      file: '/etc/nginx/sites-available/proxy-app.example.com',
      enabledLink: '/etc/nginx/sites-enabled/proxy-app.example.com',
    });
  });

  it('RHEL: a conf.d file', () => {
    expect(sitePaths('rhel', 'app.example.com')).toEqual({
      file: '/etc/nginx/conf.d/proxy-app.example.com.conf',
    });
  });

  it('keeps every file name within 255 bytes, the same on every call, distinct per domain', () => {
    const other = `${longest.slice(0, -1)}e`;
    for (const family of ['debian', 'rhel'] as const) {
      const a = sitePaths(family, longest);
      const base = a.file.split('/').at(-1)!;
      expect(base.length).toBeLessThanOrEqual(255);
      expect(base).toMatch(/^proxy-a{63}\.b{63}\.c{52}-[0-9a-f]{16}(\.conf)?$/);
      expect(sitePaths(family, longest)).toEqual(a);
      expect(sitePaths(family, other).file).not.toBe(a.file);
    }
  });

  it('refuses an invalid domain or an unknown family', () => {
    for (const bad of ['x; return 200', '../etc', 'a.example\n', 'A.example']) {
      expect(() => sitePaths('debian', bad)).toThrow(DeployValidationError);
    }
    expect(() => sitePaths('arch' as 'debian', 'a.example')).toThrow(DeployValidationError);
  });
});

describe('certName', () => {
  it('is the domain itself, as certbot would choose, for ordinary names', () => {
    expect(certName('app.example.com')).toBe('app.example.com');
    expect(certName('a'.repeat(63).concat('.example'))).toBe(`${'a'.repeat(63)}.example`);
  });

  it('maps a wildcard to _wildcard, which no host name can hold', () => {
    expect(certName('*.example.com')).toBe('_wildcard.example.com');
    expect(sitePaths('debian', '*.example.com').file).toBe(
      '/etc/nginx/sites-available/proxy-_wildcard.example.com',
    );
    expect(sitePaths('rhel', '*.example.com').file).toBe(
      '/etc/nginx/conf.d/proxy-_wildcard.example.com.conf',
    );
    expect(() => certName('*.com')).toThrow(DeployValidationError);
  });

  it('is shortened so renewal/<name>.conf fits in a file name', () => {
    expect(`${certName(longest)}.conf`.length).toBeLessThanOrEqual(255);
    expect(certName(longest)).toBe(certName(longest));
  });
});

describe('serverNamesBucketSize', () => {
  // Thresholds measured with nginx 1.22 (see site-names.ts); nginx-site.nginx.test.ts
  // checks them against the real binary.
  it.each([
    [46, 64],
    [47, 128],
    [110, 128],
    [111, 256],
    [238, 256],
    [239, 512],
    [253, 512],
  ])('a %i-character domain needs %i', (length, size) => {
    const domain = domainOfLength(length);
    expect(domain).toHaveLength(length);
    expect(serverNamesBucketSize(domain)).toBe(size);
  });

  it('renders the tuning line, only for sizes it knows', () => {
    expect(renderServerNamesTuning(256)).toContain('\nserver_names_hash_bucket_size 256;\n');
    expect(() => renderServerNamesTuning(100)).toThrow(DeployValidationError);
  });
});
