import { describe, expect, it } from 'vitest';
import { osFamily, parseOsRelease } from './detect-os';

describe('parseOsRelease and osFamily', () => {
  it('reads quoted and unquoted values', () => {
    const fields = parseOsRelease(
      'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nID=ubuntu\nID_LIKE=debian\nNAME=\'Ubuntu\'\n# comment\n',
    );
    expect(fields).toMatchObject({
      PRETTY_NAME: 'Ubuntu 24.04.1 LTS',
      ID: 'ubuntu',
      NAME: 'Ubuntu',
    });
  });

  it.each([
    ['ID=debian', 'debian'],
    ['ID=ubuntu', 'debian'],
    ['ID=linuxmint\nID_LIKE="ubuntu debian"', 'debian'],
    ['ID="rocky"\nID_LIKE="rhel centos fedora"', 'rhel'],
    ['ID="almalinux"\nID_LIKE="rhel centos fedora"', 'rhel'],
    ['ID=fedora', 'rhel'],
    ['ID="centos"\nID_LIKE="rhel fedora"', 'rhel'],
    ['ID=alpine', undefined],
    ['ID=arch', undefined],
    ['ID=opensuse-leap\nID_LIKE="suse opensuse"', undefined],
    ['', undefined],
  ])('%j is %s', (text, family) => {
    expect(osFamily(parseOsRelease(text))).toBe(family);
  });
});
