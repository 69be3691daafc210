import type { TServerFacts } from '@portico/shared/ssh-servers/facts';
import { useServersTexts } from '@/lib/use-group-texts';

const GIB = 1024 ** 3;

/** What the last check read (docs/PRODUCT.md#ssh-servers), one fact a row. */
export function ServerFacts({ facts }: { facts: TServerFacts }) {
  const { t, i18n } = useServersTexts();
  const lang = i18n.resolvedLanguage ?? 'es';
  const unknown = t('servers.page.unknown');
  const program = (version: string | null, running: boolean) =>
    version === null
      ? t('servers.page.notInstalled')
      : t(running ? 'servers.page.running' : 'servers.page.stopped', { version });
  const ports = facts.ports.map((p) =>
    !p.listening
      ? t('servers.page.portFree', { port: p.port })
      : p.program
        ? t('servers.page.portHeld', { port: p.port, program: p.program })
        : t('servers.page.portHeldUnknown', { port: p.port }),
  );
  const rows: [string, string, string][] = [
    [
      'os',
      t('servers.page.os'),
      facts.os.name ?? ([facts.os.id, facts.os.version].filter(Boolean).join(' ') || unknown),
    ],
    ['init', t('servers.page.initSystem'), facts.initSystem],
    ['root', t('servers.page.rootAccess'), t(`servers.page.root.${facts.rootAccess}`)],
    ['nginx', t('servers.page.nginx'), program(facts.nginx.version, facts.nginx.running)],
    ['certbot', t('servers.page.certbot'), facts.certbot.version ?? t('servers.page.notInstalled')],
    ['renewal', t('servers.page.renewal'), t(`servers.page.renewalKind.${facts.renewal}`)],
    ['ports', t('servers.page.ports'), ports.join(' · ') || unknown],
    [
      'disk',
      t('servers.page.disk'),
      facts.diskFreeBytes === null
        ? unknown
        : `${new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(facts.diskFreeBytes / GIB)} GiB`,
    ],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid="server-facts">
      {rows.map(([key, label, value]) => (
        <div key={key} className="contents" data-testid={`fact-${key}`}>
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="mb-2 break-words sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
