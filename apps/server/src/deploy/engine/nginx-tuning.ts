import {
  renderServerNamesTuning,
  SERVER_NAMES_TUNING_PATH,
  serverNamesBucketSize,
} from '../site-names';
import { StepError } from './failure';
import { msg } from './messages';
import { bucketSizeSettings } from './nginx-dump';
import type { TFileWrite } from './nginx-writes';
import type { TStepContext } from './step-context';

/**
 * Long domains need a bigger server names hash bucket (see site-names.ts). nginx refuses the
 * directive twice, so Portico writes its own tuning file only when nothing else sets it.
 */
export function serverNamesTuning(
  c: TStepContext,
  domain: string,
  nginxDump: string,
): TFileWrite | undefined {
  const need = serverNamesBucketSize(domain);
  if (need <= 64) return undefined;
  c.log.info(msg('site.longDomain', { domain, need }));
  const settings = bucketSizeSettings(nginxDump);
  const others = settings.filter((s) => s.file !== SERVER_NAMES_TUNING_PATH);
  if (others.length > 0) {
    const biggest = others.reduce((a, b) => (b.size > a.size ? b : a));
    if (biggest.size >= need) {
      c.log.info(msg('site.bucketEnough', { file: biggest.file, size: biggest.size }));
      return undefined;
    }
    throw new StepError(
      'nginx_config_invalid',
      'http-site',
      msg('site.bucketTooSmall', { domain, need, file: biggest.file, size: biggest.size }),
    );
  }
  const ours = settings.find((s) => s.file === SERVER_NAMES_TUNING_PATH);
  if (ours && ours.size >= need) return undefined;
  return { path: SERVER_NAMES_TUNING_PATH, content: renderServerNamesTuning(need), mode: 0o644 };
}
