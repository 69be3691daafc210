import { describe, expect, it } from 'vitest';
import { addressClass, addressRange } from './address-class';
import { sshAddressProblem } from './reachability';

describe('the one address classifier', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['10.1.2.3', 'private'],
    ['172.31.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['100.64.0.1', 'private'],
    ['100.128.0.1', 'public'],
    ['203.0.113.9', 'private'],
  ])('IPv4 %s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['fd12:3456::1', 'private'],
    ['2001:db8::1', 'private'],
    ['2606:4700::6810:85e5', 'public'],
  ])('IPv6 %s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  // Each form that carries an IPv4 address, written around 127.0.0.1, 169.254.169.254 and a
  // public 8.8.8.8: judged as the address carried, never as the IPv6 address it looks like.
  it.each([
    ['IPv4-mapped, dotted', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:8.8.8.8'],
    ['IPv4-mapped, hex', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::ffff:808:808'],
    ['IPv4-mapped, in full', '0:0:0:0:0:ffff:7f00:1', '0::ffff:a9fe:a9fe', '::FFFF:0808:0808'],
    ['IPv4-translated', '::ffff:0:7f00:1', '::ffff:0:169.254.169.254', '::ffff:0:808:808'],
    ['IPv4-compatible', '::7f00:1', '::169.254.169.254', '::8.8.8.8'],
    ['NAT64 64:ff9b::/96', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::8.8.8.8'],
    ['6to4 2002::/16', '2002:7f00:1::1', '2002:a9fe:a9fe::', '2002:808:808::1'],
    [
      'Teredo 2001::/32 (client inverted)',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:4136:e378:8000:63bf:5601:5601',
      '2001::f7f7:f7f7',
    ],
  ])('%s: judged by the IPv4 address it carries', (_form, loopback, metadata, publicOne) => {
    expect(addressRange(loopback)).toBe('loopback');
    expect(addressRange(metadata)).toBe('linkLocal');
    expect(addressRange(publicOne)).toBe('public');
    expect(addressClass(loopback)).toBe('private');
    expect(addressClass(metadata)).toBe('forbidden');
    expect(sshAddressProblem(loopback)).toBe('loopback');
    expect(sshAddressProblem(metadata)).toBe('linkLocal');
    expect(sshAddressProblem(publicOne)).toBeUndefined();
  });

  it('judges local-use NAT64 64:ff9b:1::/48 by its last 32 bits, private at best', () => {
    expect(addressRange('64:ff9b:1::7f00:1')).toBe('loopback');
    expect(addressRange('64:ff9b:1:ab::a9fe:a9fe')).toBe('linkLocal');
    // A public address carried: still a local network's translator.
    expect(addressRange('64:ff9b:1::808:808')).toBe('private');
    expect(addressClass('64:ff9b:1::808:808')).toBe('private');
  });

  it('knows a non-address as none, and the coarse class refuses it', () => {
    for (const value of ['localhost', '1.2.3', '1.2.3.256', '::ffff:1.2.3', '1::2::3', ':::']) {
      expect(addressRange(value)).toBeUndefined();
      expect(addressClass(value)).toBe('forbidden');
      expect(sshAddressProblem(value)).toBeUndefined();
    }
  });
});
