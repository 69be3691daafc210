/**
 * The log socket of a configuration: same host as the page, wss when the page is https.
 * `lang` names the viewer's language, in which the server writes its lines' words.
 */
export function logSocketUrl(
  configurationId: string,
  location: Pick<Location, 'protocol' | 'host'>,
  lang?: string,
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const language = lang ? `&lang=${encodeURIComponent(lang)}` : '';
  return `${scheme}://${location.host}/ws?configId=${encodeURIComponent(configurationId)}${language}`;
}
