import type { TLab } from '../../../../testbed/src/lab';

// Every parse of the whole configuration costs seconds with hundreds of sites (each loads its
// certificate; docs/PERFORMANCE.md "Many sites on one server"), so tests count them. Counted on
// one lab server: each run of the nginx binary that parses (-t, -T, -s, a start) through a
// wrapper put in its place (the lab's /usr is the server's own), and each reload of the master
// from a notice-level log it writes ("signal 1 (SIGHUP) received ..., reconfiguring").
const COUNT_PARSES = `set -e
mv /usr/sbin/nginx /usr/sbin/nginx.counted
printf '#!/bin/sh\\necho "run:$*" >> /var/log/portico-nginx-runs\\nexec /usr/sbin/nginx.counted "$@"\\n' > /usr/sbin/nginx
chmod 755 /usr/sbin/nginx
sed -i '1i error_log /var/log/nginx/portico-notice.log notice;' /etc/nginx/nginx.conf
nginx -s reload
sleep 1`;
const UNCOUNT_PARSES = `mv -f /usr/sbin/nginx.counted /usr/sbin/nginx
sed -i '/portico-notice.log/d' /etc/nginx/nginx.conf
nginx -s reload
rm -f /var/log/portico-nginx-runs /var/log/nginx/portico-notice.log`;

export type TNginxParses = { runs: string[]; reloads: number };

/**
 * Starts counting nginx's parses on `server` (before anything whose dump a test relies on: the
 * counter's own change to nginx.conf is a change). `since()` answers the parses since its last
 * call; `stop()` puts nginx back.
 */
export async function countNginxParses(lab: TLab, server: string) {
  const started = await lab.exec(server, ['bash', '-c', COUNT_PARSES]);
  if (started.code !== 0)
    throw new Error(`counting nginx runs: ${started.stdout}${started.stderr}`);
  const since = async (): Promise<TNginxParses> => {
    const read = await lab.exec(server, [
      'bash',
      '-c',
      'cat /var/log/portico-nginx-runs; echo ---; cat /var/log/nginx/portico-notice.log; : > /var/log/portico-nginx-runs; : > /var/log/nginx/portico-notice.log',
    ]);
    const [runs = '', notices = ''] = read.stdout.split('\n---\n');
    return {
      runs: runs
        .split('\n')
        .filter((line) => line.startsWith('run:'))
        .map((line) => line.slice('run:'.length))
        .filter((args) => args === '' || /(^| )-[tTs]( |$)/.test(args)),
      reloads: notices.match(/SIGHUP\) received.*reconfiguring/g)?.length ?? 0,
    };
  };
  await since();
  return {
    since,
    stop: async () => {
      await lab.exec(server, ['bash', '-c', UNCOUNT_PARSES]);
    },
  };
}
