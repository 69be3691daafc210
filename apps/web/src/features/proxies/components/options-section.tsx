import type { TProxyOptionsView } from '@portico/shared/proxy/options';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useOptionsTexts } from '@/lib/use-group-texts';
import { dlClass, Row } from './details-sections';

type TUpstreamView = { url: string; weight?: number; backup?: boolean };
const upstreamText = (u: TUpstreamView) =>
  [u.url, u.weight && `weight=${u.weight}`, u.backup && 'backup'].filter(Boolean).join(' ');

/** The details page's account of a proxy's options (docs/PRODUCT.md#proxy-options). */
export function OptionsSection({ options }: { options: TProxyOptionsView }) {
  const { t } = useOptionsTexts();
  const o = options;
  const onOff = (v: boolean) => (v ? t('options.view.on') : t('options.view.off'));
  const rows: [string, string, string][] = [];
  if (o.upstreams) {
    const method = o.loadBalancing ? ` (${t(`options.lb.${o.loadBalancing}`)})` : '';
    rows.push([
      'upstreams',
      t('options.view.upstreams'),
      o.upstreams.map(upstreamText).join(', ') + method,
    ]);
  }
  if (o.health) {
    rows.push(['health', t('options.view.health'), t('options.view.healthValue', o.health)]);
  }
  const timeouts = (['connect', 'send', 'read'] as const).flatMap((k) =>
    o.timeouts?.[k] === undefined ? [] : [t(`options.view.${k}`, { seconds: o.timeouts[k] })],
  );
  if (timeouts.length > 0) rows.push(['timeouts', t('options.view.timeouts'), timeouts.join(', ')]);
  if (o.locations) {
    rows.push([
      'locations',
      t('options.view.locations'),
      o.locations.map((l) => `${l.path} → ${l.upstreams.map(upstreamText).join(', ')}`).join('; '),
    ]);
  }
  if (o.redirect)
    rows.push(['redirect', t('options.view.redirect'), `${o.redirect.code} → ${o.redirect.to}`]);
  if (o.hsts) {
    const flags = [
      o.hsts.includeSubDomains && 'includeSubDomains',
      o.hsts.preload && 'preload',
    ].filter(Boolean);
    rows.push(['hsts', t('options.view.hsts'), [`max-age=${o.hsts.maxAge}`, ...flags].join('; ')]);
  }
  if (o.headers)
    rows.push([
      'headers',
      t('options.view.headers'),
      o.headers.map((h) => `${h.name}: ${h.value}`).join('; '),
    ]);
  if (o.allow || o.deny) {
    const access = [
      ...(o.deny ?? []).map((c) => `deny ${c}`),
      ...(o.allow ?? []).map((c) => `allow ${c}`),
    ];
    rows.push(['access', t('options.view.access'), access.join(', ')]);
  }
  if (o.basicAuth?.length) {
    rows.push([
      'basicAuth',
      t('options.view.basicAuth'),
      t('options.view.users', {
        count: o.basicAuth.length,
        names: o.basicAuth.map((u) => u.username).join(', '),
      }),
    ]);
  }
  const limits = [
    o.clientMaxBodyMb !== undefined && t('options.view.bodyMb', { mb: o.clientMaxBodyMb }),
    o.websocket !== undefined && `${t('options.view.websocket')}: ${onOff(o.websocket)}`,
    o.compression !== undefined && `${t('options.view.compression')}: ${onOff(o.compression)}`,
  ].filter(Boolean);
  if (limits.length > 0) rows.push(['limits', t('options.view.limits'), limits.join(', ')]);
  if (o.advanced) rows.push(['advanced', t('options.view.advanced'), o.advanced]);
  return (
    <Card data-testid="options-section">
      <CardHeader>
        <CardTitle>{t('options.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="options-none">
            {t('options.view.none')}
          </p>
        ) : (
          <dl className={dlClass}>
            {rows.map(([key, label, value]) => (
              <Row key={key} label={label} testId={`options-${key}`} wrap="anywhere">
                {value}
              </Row>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
