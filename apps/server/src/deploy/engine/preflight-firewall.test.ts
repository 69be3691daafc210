import { renderText } from '@portico/shared/i18n/text';
import { describe, expect, it } from 'vitest';
import { firewallAdvice, firewalldBlockedPorts, ufwBlockedPorts } from './preflight-firewall';

describe('ufwBlockedPorts', () => {
  it('is empty when ufw is inactive', () => {
    expect(ufwBlockedPorts('Status: inactive')).toEqual([]);
    expect(ufwBlockedPorts('')).toEqual([]);
  });

  it('finds ports an active ufw does not allow', () => {
    const status = `Status: active

To                         Action      From
--                         ------      ----
OpenSSH                    ALLOW       Anywhere
8080/tcp                   ALLOW       Anywhere
OpenSSH (v6)               ALLOW       Anywhere (v6)`;
    expect(ufwBlockedPorts(status)).toEqual([80, 443]);
  });

  it('accepts ports, ranges of names and application profiles', () => {
    const base = 'Status: active\n\nTo Action From\n';
    expect(ufwBlockedPorts(`${base}Nginx Full                 ALLOW       Anywhere`)).toEqual([]);
    expect(ufwBlockedPorts(`${base}80/tcp ALLOW Anywhere\n443 ALLOW Anywhere`)).toEqual([]);
    expect(ufwBlockedPorts(`${base}80,443/tcp ALLOW Anywhere`)).toEqual([]);
    expect(ufwBlockedPorts(`${base}Nginx HTTP ALLOW Anywhere`)).toEqual([443]);
    expect(ufwBlockedPorts(`${base}443/tcp DENY Anywhere\n80/tcp ALLOW Anywhere`)).toEqual([443]);
  });
});

describe('firewalldBlockedPorts', () => {
  it('accepts services or ports', () => {
    expect(firewalldBlockedPorts('cockpit dhcpv6-client ssh', '')).toEqual([80, 443]);
    expect(firewalldBlockedPorts('ssh http https', '')).toEqual([]);
    expect(firewalldBlockedPorts('ssh http', '443/tcp 8080/tcp')).toEqual([]);
    expect(firewalldBlockedPorts('ssh', '8443/tcp')).toEqual([80, 443]);
  });
});

describe('firewallAdvice', () => {
  it('gives the exact command', () => {
    expect(renderText('en', firewallAdvice('ufw', [80, 443]))).toContain(
      'ufw allow 80/tcp && ufw allow 443/tcp',
    );
    expect(renderText('en', firewallAdvice('firewalld', [443]))).toContain(
      'firewall-cmd --permanent --add-service=https && firewall-cmd --reload',
    );
  });
});
