import { renderText } from '@portico/shared/i18n/text';
import { describe, expect, it } from 'vitest';
import { foreignListeners, parseDf, parseListeners } from './preflight-ports';

// Captured from `ss -ltnp` on Debian 12 (iproute2 6.1).
const SS = `State  Recv-Q Send-Q Local Address:Port Peer Address:PortProcess
LISTEN 0      511          0.0.0.0:80        0.0.0.0:*    users:(("nginx",pid=50,fd=5),("nginx",pid=49,fd=5),("nginx",pid=47,fd=5))
LISTEN 0      128          0.0.0.0:22        0.0.0.0:*    users:(("sshd",pid=45,fd=3))
LISTEN 0      5            0.0.0.0:443       0.0.0.0:*    users:(("python3",pid=812,fd=3))
LISTEN 0      511             [::]:80           [::]:*    users:(("nginx",pid=50,fd=6),("nginx",pid=47,fd=6))
LISTEN 0      4096       127.0.0.1:8080      0.0.0.0:*    users:(("node",pid=9,fd=20))
LISTEN 0      4096               *:443             *:*`;

describe('parseListeners', () => {
  it('keeps ports 80 and 443 with their programs and pids', () => {
    const found = parseListeners(SS);
    expect(found.map((l) => `${l.address}:${l.port}`)).toEqual([
      '0.0.0.0:80',
      '0.0.0.0:443',
      '[::]:80',
      '*:443',
    ]);
    expect(found[1]!.owners).toEqual([{ program: 'python3', pid: 812 }]);
    expect(found[3]!.owners).toEqual([]);
  });

  it('ignores a port that merely ends in 80 or 443', () => {
    expect(parseListeners('LISTEN 0 5 0.0.0.0:8080 0.0.0.0:* users:(("x",pid=1,fd=3))')).toEqual(
      [],
    );
    expect(parseListeners('LISTEN 0 5 0.0.0.0:4443 0.0.0.0:* users:(("x",pid=1,fd=3))')).toEqual(
      [],
    );
  });
});

describe('foreignListeners', () => {
  it('names every program other than nginx with its pids, and unnamed holders', () => {
    expect(foreignListeners(parseListeners(SS)).map((t) => renderText('en', t))).toEqual([
      'port 443 (0.0.0.0) is held by python3 (pid 812)',
      'port 443 (*) is held by a program ss cannot name',
    ]);
  });

  it('is empty when only nginx listens', () => {
    expect(foreignListeners(parseListeners(SS.split('\n').slice(0, 3).join('\n')))).toEqual([]);
  });
});

describe('parseDf', () => {
  it('reads the available kilobytes per mount point', () => {
    const df = `Filesystem     1024-blocks     Used Available Capacity Mounted on
/dev/vda1        20480000 18000000   2480000      88% /
tmpfs              102400        0    102400       0% /run/my disk`;
    expect(parseDf(df)).toEqual([
      { mount: '/', availableKb: 2480000 },
      { mount: '/run/my disk', availableKb: 102400 },
    ]);
  });
});
