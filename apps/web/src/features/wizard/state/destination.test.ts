import type { TDestinationServer } from '@portico/shared/proxy/api';
import { describe, expect, it } from 'vitest';
import { chosenTarget, isSelectable, MANUAL, preselect } from './destination';
import { checkManualDestination } from './manual-destination';

const server = (over: Partial<TDestinationServer>): TDestinationServer => ({
  id: 'a',
  name: 'App',
  endpoint: 'http://10.0.0.5:8080',
  description: null,
  status: 'online',
  load: null,
  latency: 3,
  isActive: true,
  maintenanceNote: null,
  ...over,
});

describe('manual destination messages', () => {
  it.each([
    '10.0.0.5',
    'backend.internal',
    'backend.internal:8080',
    'localhost:3000',
    'http://10.0.0.5:8080',
    'https://app.example.com/base',
  ])('%s is a valid address', (value) => {
    expect(checkManualDestination(value)).toEqual({
      state: 'valid',
      messageKey: 'validation.target.valid',
    });
  });

  it.each([
    'ftp://host',
    'http://has space.com',
    'host:99999',
    '300.1.1.1',
    'bad_host!',
    'host;rm -rf',
  ])('%s gets the invalid-format message', (value) => {
    expect(checkManualDestination(value)).toEqual({
      state: 'invalid',
      messageKey: 'validation.target.invalid',
    });
  });

  it('says nothing while the field is empty', () => {
    expect(checkManualDestination('  ')).toEqual({ state: 'empty' });
  });
});

describe('destination choice', () => {
  const online = server({ id: 'on', endpoint: 'http://10.0.0.5:8080' });
  const offline = server({ id: 'off', endpoint: 'http://10.0.0.6', status: 'offline' });
  const inactive = server({ id: 'in', endpoint: 'http://10.0.0.7', isActive: false });
  const unknown = server({ id: 'un', endpoint: 'http://10.0.0.8', status: 'unknown' });
  const list = [online, offline, inactive, unknown];

  it('offline and inactive servers cannot be selected', () => {
    expect(list.map(isSelectable)).toEqual([true, false, false, true]);
  });

  it('preselects a listed server whose endpoint matches the saved target', () => {
    expect(preselect('http://10.0.0.5:8080', list)).toEqual({
      selection: 'on',
      manualEndpoint: '',
    });
  });

  it('preselects manual mode with any other saved target, nothing when none', () => {
    expect(preselect('backend:9000', list)).toEqual({
      selection: MANUAL,
      manualEndpoint: 'backend:9000',
    });
    expect(preselect('http://10.0.0.6', list)).toEqual({
      selection: MANUAL,
      manualEndpoint: 'http://10.0.0.6',
    });
    expect(preselect('', list)).toEqual({ selection: null, manualEndpoint: '' });
  });

  it('enables Next for an online server or a valid manual endpoint only', () => {
    expect(chosenTarget('on', '', list)).toBe('http://10.0.0.5:8080');
    expect(chosenTarget('un', '', list)).toBeNull();
    expect(chosenTarget('off', '', list)).toBeNull();
    expect(chosenTarget('in', '', list)).toBeNull();
    expect(chosenTarget(null, '', list)).toBeNull();
    expect(chosenTarget(MANUAL, ' backend:9000 ', list)).toBe('backend:9000');
    expect(chosenTarget(MANUAL, 'not valid!', list)).toBeNull();
  });
});
