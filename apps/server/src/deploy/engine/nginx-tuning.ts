import {
  renderServerNamesTuning,
  SERVER_NAMES_TUNING_PATH,
  serverNamesBucketSize,
} from '../site-names';
import { StepError } from './failure';
import type { TFileWrite } from './nginx-transaction';
import { asRoot, type TStepContext } from './step-context';

/** Every `server_names_hash_bucket_size` in `nginx -T` output, with the file that sets it. */
export function bucketSizeSettings(text: string): { file: string; size: number }[] {
  const found: { file: string; size: number }[] = [];
  let file = '';
  for (const line of text.split('\n')) {
    const header = /^# configuration file (.+):$/.exec(line);
    if (header) {
      file = header[1]!;
      continue;
    }
    const m = /^\s*server_names_hash_bucket_size\s+(\d+)\s*;/.exec(line);
    if (m) found.push({ file, size: Number(m[1]) });
  }
  return found;
}

const DUMP = `nginx -T 2>/dev/null | grep -E '^# configuration file |^[[:space:]]*server_names_hash_bucket_size[[:space:]]'; exit 0`;

/**
 * Long domains need a bigger server names hash bucket (see site-names.ts). nginx refuses the
 * directive twice, so Portico writes its own tuning file only when nothing else sets it.
 */
export async function serverNamesTuning(
  c: TStepContext,
  domain: string,
): Promise<TFileWrite | undefined> {
  const need = serverNamesBucketSize(domain);
  if (need <= 64) return undefined;
  c.log.info(
    `${domain} is long, so nginx needs server_names_hash_bucket_size ${need}; checking the current setting.`,
  );
  const r = await asRoot(c.session, DUMP);
  const settings = bucketSizeSettings(r.stdout);
  const others = settings.filter((s) => s.file !== SERVER_NAMES_TUNING_PATH);
  if (others.length > 0) {
    const biggest = others.reduce((a, b) => (b.size > a.size ? b : a));
    if (biggest.size >= need) {
      c.log.info(`${biggest.file} already sets it to ${biggest.size}, which is enough.`);
      return undefined;
    }
    throw new StepError(
      'nginx_config_invalid',
      'http-site',
      `${domain} needs server_names_hash_bucket_size ${need} or more, but ${biggest.file} sets it to ${biggest.size}. Raise that value to ${need} on the server, then deploy again.`,
    );
  }
  const ours = settings.find((s) => s.file === SERVER_NAMES_TUNING_PATH);
  if (ours && ours.size >= need) return undefined;
  return { path: SERVER_NAMES_TUNING_PATH, content: renderServerNamesTuning(need), mode: 0o644 };
}
