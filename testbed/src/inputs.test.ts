// What may travel from a caller into dnsmasq arguments and server setup: only allowlisted values.
import { describe, expect, it } from 'vitest';
import { dnsmasqArgs } from './dns';
import { DEFAULT_LAB_WORKERS, labTierScheduling } from './file-parallelism';
import { assertDomain, labNames } from './names';
import { parseVariants } from './variants';

const hostile = [
  '',
  'example',
  'a..b.test',
  '-x.portico.test',
  'UPPER.portico.test',
  'a.portico.test/',
  'a.portico.test --server=8.8.8.8',
  'a;rm -rf /.test',
  'a.portico.test\n--address=/#/1.2.3.4',
  '*.portico.test',
  `${'a'.repeat(64)}.portico.test`,
];

describe('lab inputs', () => {
  it('accepts plain lower-case host names as lab domains', () => {
    for (const domain of ['site1.s1.portico.test', 'www.example.test', 'x-1.a.b.c.test']) {
      expect(() => assertDomain(domain), domain).not.toThrow();
    }
  });

  it('rejects anything else as a domain, before it reaches dnsmasq', () => {
    for (const domain of hostile) {
      expect(() => assertDomain(domain), JSON.stringify(domain)).toThrow(/not a valid domain/);
      expect(() => dnsmasqArgs(labNames(3), { [domain]: '198.18.3.11' })).toThrow();
    }
  });

  it('answers only with addresses inside the lab range', () => {
    const names = labNames(3);
    expect(dnsmasqArgs(names, { 'a.portico.test': '198.18.3.11' })).toEqual(
      expect.arrayContaining(['--address=/a.portico.test/198.18.3.11', '--local=/a.portico.test/']),
    );
    for (const address of ['8.8.8.8', '127.0.0.1', '198.18.3.11/0', '198.18.3.1 --x']) {
      expect(() => dnsmasqArgs(names, { 'a.portico.test': address }), address).toThrow(
        /not a lab address/,
      );
    }
  });

  it('forwards the DNS-01 zone to bind9, uncached, only for a dns01 lab', () => {
    const names = labNames(3);
    const forward = '--server=/dyn.portico.test/198.18.3.2#5353';
    expect(dnsmasqArgs(names, {}, true)).toEqual(
      expect.arrayContaining([forward, '--cache-size=0']),
    );
    expect(dnsmasqArgs(names, {})).not.toContain(forward);
  });

  it('parses variants per server or for all, and rejects unknown ones', () => {
    expect(parseVariants(['nginx-stopped', 's2=port80-busy,existing-site', ''])).toEqual({
      '*': ['nginx-stopped'],
      s2: ['port80-busy', 'existing-site'],
    });
    expect(() => parseVariants(['s1=reboot'])).toThrow(/unknown variant/);
    expect(() => parseVariants(['x; ls=nginx-stopped'])).toThrow(/bad server name/);
  });

  it('keeps lab numbers and server indexes within their ranges', () => {
    expect(labNames(0).infraAddress).toBe('198.18.0.2');
    expect(labNames(7).server(3).address).toBe('198.18.7.13');
    for (const id of [-1, 251, 1.5, Number.NaN]) expect(() => labNames(id)).toThrow(/bad lab id/);
    expect(() => labNames(0).server(0)).toThrow(/bad server index/);
  });

  it('runs lab files side by side as PORTICO_LAB_WORKERS says, one at a time for 1', () => {
    expect(labTierScheduling(undefined)).toEqual({
      fileParallelism: true,
      maxWorkers: DEFAULT_LAB_WORKERS,
      sequence: { groupOrder: 1 },
    });
    expect(labTierScheduling('3')).toMatchObject({ fileParallelism: true, maxWorkers: 3 });
    expect(labTierScheduling('1')).toMatchObject({ fileParallelism: false, maxWorkers: 1 });
    for (const value of ['0', '5', '2.5', ' 2', 'two', '-1']) {
      expect(() => labTierScheduling(value), value).toThrow(/PORTICO_LAB_WORKERS must be/);
    }
  });
});
