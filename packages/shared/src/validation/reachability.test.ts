import { describe, expect, it } from 'vitest';
import { sshAddressProblem } from './reachability';

describe('sshAddressProblem', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['127.0.0.0', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.255', 'loopback'],
    ['169.254.0.0', 'linkLocal'],
    ['169.254.169.254', 'linkLocal'],
    ['224.0.0.0', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.0', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('refuses %s (%s)', (address, problem) => {
    expect(sshAddressProblem(address)).toBe(problem);
  });

  // Private ranges are allowed on purpose: servers on a LAN or a VPN.
  it.each([
    '1.0.0.0',
    '10.0.0.1',
    '100.64.0.1',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.1',
    '172.16.0.1',
    '192.168.0.1',
    '198.18.0.1',
    '203.0.113.10',
    '223.255.255.255',
  ])('allows %s', (address) => {
    expect(sshAddressProblem(address)).toBeUndefined();
  });
});
