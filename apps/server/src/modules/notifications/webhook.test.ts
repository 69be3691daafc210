import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpSink, type THttpSink } from '../../../test/support/http-sink';
import { webhookResult } from './delivery';
import { postWebhook } from './webhook';
import { allowedAddresses, classifyAddress, WebhookAddressError } from './webhook-address';

describe('where a webhook may point', () => {
  it.each([
    ['93.184.215.14', 'public'],
    ['2606:4700::6810:85e5', 'public'],
    ['127.0.0.1', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.11', 'private'],
    ['::1', 'private'],
    ['fd00::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['::', 'forbidden'],
    ['not-an-address', 'forbidden'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('judges a name by every address it resolves to', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await expect(allowedAddresses('hooks.example.com', false, resolve)).rejects.toMatchObject({
      reason: 'private',
      address: '10.0.0.5',
    });
    await expect(allowedAddresses('hooks.example.com', true, resolve)).resolves.toHaveLength(2);
    // The real resolver: localhost is loopback.
    await expect(allowedAddresses('localhost', false)).rejects.toBeInstanceOf(WebhookAddressError);
    await expect(allowedAddresses('[::1]', false)).rejects.toMatchObject({ reason: 'private' });
    await expect(allowedAddresses('no-such-name.invalid', true)).rejects.toMatchObject({
      reason: 'unresolved',
    });
  });
});

describe('calling a webhook', () => {
  let sink: THttpSink;
  let other: THttpSink;
  beforeAll(async () => {
    other = await startHttpSink();
    sink = await startHttpSink((path) => {
      if (path === '/moved') return { status: 302, headers: { location: other.url('/stolen') } };
      if (path === '/broken') {
        const headers: Record<string, string> = { 'x-internal': 'HEADER-SECRET' };
        return { status: 500, headers, body: 'BODY-SECRET' };
      }
      if (path === '/hang') return 'hang';
      return { status: 200 };
    });
  });
  afterAll(async () => {
    await sink?.close();
    await other?.close();
  });

  it('POSTs the JSON body and says it was delivered', async () => {
    const outcome = await postWebhook(
      sink.url('/ok'),
      { text: 'hola', content: 'hola' },
      {
        allowPrivate: true,
      },
    );
    expect(outcome).toEqual({ delivered: true, status: 200 });
    const request = sink.requests.at(-1)!;
    expect(request.path).toBe('/ok');
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request.json).toEqual({ text: 'hola', content: 'hola' });
  });

  it('never follows a redirect, nor says where it pointed', async () => {
    const outcome = await postWebhook(sink.url('/moved'), { text: 'x' }, { allowPrivate: true });
    expect(outcome).toEqual({ delivered: false, reason: 'redirect', status: 302 });
    expect(other.requests).toHaveLength(0);
    expect(webhookResult('en', outcome).error).toBe(
      'The webhook answered with a redirect (3xx); Portico does not follow redirects. Use the final URL.',
    );
  });

  it('tells an error answer by its status class only, never its body or headers', async () => {
    const outcome = await postWebhook(sink.url('/broken'), { text: 'x' }, { allowPrivate: true });
    expect(outcome).toEqual({ delivered: false, reason: 'status', status: 500 });
    expect(webhookResult('es', outcome).error).toBe(
      'El webhook respondió con un estado 5xx en lugar de 2xx.',
    );
  });

  it('gives up at its deadline when the receiver never answers', async () => {
    const outcome = await postWebhook(
      sink.url('/hang'),
      { text: 'x' },
      {
        allowPrivate: true,
        deadlineMs: 500,
      },
    );
    expect(outcome).toEqual({ delivered: false, reason: 'unreachable', cause: 'timeout' });
    expect(webhookResult('en', outcome).error).toBe('Could not connect to the webhook.');
  });

  it('refuses loopback unless private addresses are allowed, literal or by name', async () => {
    const before = sink.requests.length;
    for (const url of [sink.url('/ok'), `http://localhost:${sink.port}/ok`]) {
      const outcome = await postWebhook(url, { text: 'x' }, { allowPrivate: false });
      expect(outcome).toMatchObject({ delivered: false, reason: 'address' });
      expect(webhookResult('en', outcome).error).toMatch(
        /^Portico does not call (127\.0\.0\.1: it is|localhost: it points at (127\.0\.0\.1|::1),) a private or loopback address/,
      );
    }
    expect(sink.requests.length).toBe(before);
  });

  it('refuses the cloud metadata address even when private addresses are allowed', async () => {
    const outcome = await postWebhook(
      'http://169.254.169.254/latest/meta-data/',
      { text: 'x' },
      {
        allowPrivate: true,
      },
    );
    expect(outcome).toMatchObject({ delivered: false, reason: 'address' });
    expect(webhookResult('es', outcome).error).toContain('que nunca se permite');
  });
});
