import { describe, expect, it } from 'vitest';
import { pickGroup } from './json-group';

const catalog = { landing: { title: 'Portico' }, certificate: { badge: 'Expires today' } };

describe('part of a catalog as a module', () => {
  it('takes one group, or every group but it', () => {
    expect(pickGroup(catalog, 'group=certificate')).toEqual({ badge: 'Expires today' });
    expect(pickGroup(catalog, 'without=certificate')).toEqual({ landing: { title: 'Portico' } });
  });

  it('leaves out several groups at once, each of which must exist', () => {
    const three = { ...catalog, settings: { title: 'Settings' } };
    expect(pickGroup(three, 'without=certificate,settings')).toEqual({
      landing: { title: 'Portico' },
    });
    expect(() => pickGroup(three, 'without=certificate,setings')).toThrow('no group "setings"');
    expect(() => pickGroup(three, 'group=certificate,settings')).toThrow('one group');
  });

  it('leaves other imports alone and refuses a group the catalog lacks', () => {
    expect(pickGroup(catalog, 'raw')).toBeNull();
    expect(() => pickGroup(catalog, 'group=certificates')).toThrow('no group "certificates"');
  });
});
