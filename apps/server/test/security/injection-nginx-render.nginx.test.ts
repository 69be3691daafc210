import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderFinalSite, renderHttpSite, type TSiteInput } from '../../src/deploy/nginx-site';
import { isDomain } from '../../src/deploy/validate';
import { useNginxScratch } from '../support/nginx-scratch';
import { targetParts, targetText, validDomain } from './injection-corpus';

const _NGINX = '/usr/sbin/nginx';
const SITES_PER_RUN = 24;

interface TRenderCase {
  input: TSiteInput;
  final: boolean;
  /** Replaces the rendered text (only the harness self-check uses it). */
  text?: string;
}

// Long labels now and then: long names are where nginx's hash sizes bite.
const domain = fc
  .oneof(
    { weight: 4, arbitrary: validDomain },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9-]{40,61}[a-z0-9]$/), validDomain)
        .map(([long, rest]) => `${long}.${rest}`),
    },
  )
  .filter(isDomain);
// Upstream host names are resolved when nginx loads a file: addresses and localhost only, so the
// test checks syntax and sends nothing to any resolver.
const target = targetParts(fc.oneof(fc.ipV4(), fc.constant('localhost'))).map(targetText);
const renderCase: fc.Arbitrary<TRenderCase> = fc.record({
  input: fc.record({ domain, target, ipv6: fc.boolean() }),
  final: fc.boolean(),
});
const batch = fc.uniqueArray(renderCase, {
  minLength: 1,
  maxLength: SITES_PER_RUN,
  selector: (c) => c.input.domain,
});

const scratch = useNginxScratch('portico-injection-nginx');

/**
 * Loads every case's site in one `nginx -t` and returns '' or nginx's complaint with the input
 * of the file it names.
 */
function nginxTest(cases: TRenderCase[]): string {
  const { ok, output, files } = scratch(
    cases.map((c) => ({
      domain: c.input.domain,
      text: (le: string) =>
        c.text ??
        (c.final ? renderFinalSite(c.input, { letsencryptDir: le }) : renderHttpSite(c.input)),
    })),
  );
  if (ok && output === '') return '';
  const named = files.findIndex((file) => output.includes(file));
  const c = cases[named];
  return c
    ? `${output}\nfrom ${c.final ? 'final' : 'HTTP'} site ${JSON.stringify(c.input)}`
    : `${output}\nfrom one of ${JSON.stringify(cases)}`;
}

describe('injection: rendered sites for random valid inputs pass a real nginx -t', () => {
  it('batches of HTTP and final TLS sites load together', () => {
    fc.assert(
      fc.property(batch, (cases) => {
        expect(nginxTest(cases)).toBe('');
      }),
      { numRuns: 40 },
    );
  });

  it('the harness names the input of a broken site among good ones', () => {
    const input = { domain: 'broken.example', target: 'http://127.0.0.1:8080' };
    const text = renderHttpSite(input).replace('proxy_http_version 1.1;', 'bogus_directive;');
    const complaint = nginxTest([
      { input: { domain: 'fine.example', target: '10.0.0.1' }, final: false },
      { input, final: false, text },
      { input: { domain: 'also-fine.example', target: 'https://localhost/app' }, final: true },
    ]);
    expect(complaint).toContain('unknown directive "bogus_directive"');
    expect(complaint).toContain('from HTTP site {"domain":"broken.example"');
  });
});
