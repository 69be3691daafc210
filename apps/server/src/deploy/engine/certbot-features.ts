import type { TText } from '@portico/shared/i18n/text';
import { msg } from './messages';

/**
 * What the server's certbot can do for short lifetimes, by its version (certbot's changelog):
 * 4.0 added ACME profiles (`--preferred-profile`) and renews with a third of the lifetime left
 * (half under 10 days) instead of 30 days before the end; 4.1 added ACME Renewal Information
 * (ARI), which `certbot renew` asks the CA on its own. Debian 12 ships 2.1: neither.
 */
export const PROFILES_SINCE: readonly [number, number] = [4, 0];
export const ARI_SINCE: readonly [number, number] = [4, 1];

/** The line the certbot script prints before certbot runs: `PORTICO_CERTBOT_VERSION=<version>`. */
export const VERSION_MARK = 'PORTICO_CERTBOT_VERSION=';

export type TCertbotVersion = { text: string; major: number; minor: number };

/** `certbot --version`'s answer ("certbot 2.1.0"), or null when it said nothing usable. */
export function parseCertbotVersion(answer: string): TCertbotVersion | null {
  const m = /^(?:certbot\s+)?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?[\w.+-]{0,32}$/.exec(
    answer.trim(),
  );
  if (!m) return null;
  return { text: m[0].replace(/^certbot\s+/, ''), major: Number(m[1]), minor: Number(m[2]) };
}

function atLeast(v: TCertbotVersion, [major, minor]: readonly [number, number]): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}

export type TCertbotFeatures = { profiles: boolean; ari: boolean };

export function certbotFeatures(v: TCertbotVersion | null): TCertbotFeatures {
  return v
    ? { profiles: atLeast(v, PROFILES_SINCE), ari: atLeast(v, ARI_SINCE) }
    : { profiles: false, ari: false };
}

/**
 * The log line saying which of profiles and ARI this run used, and when this certbot renews.
 * `profile` is the instance's PORTICO_ACME_PROFILE (undefined: none asked for).
 */
export function certbotFeaturesLine(v: TCertbotVersion | null, profile: string | undefined): TText {
  if (!v) return msg('certificate.certbotVersionUnknown');
  const f = certbotFeatures(v);
  const profilePart = !f.profiles
    ? msg('certificate.profilesUnsupported')
    : profile
      ? msg('certificate.profileAsked', { profile })
      : msg('certificate.profileDefault');
  const renewalPart = f.ari
    ? msg('certificate.ariUsed')
    : f.profiles
      ? msg('certificate.ariUnsupportedThird')
      : msg('certificate.ariUnsupportedDays');
  return msg('certificate.certbotFeatures', {
    version: v.text,
    profile: profilePart,
    renewal: renewalPart,
  });
}
