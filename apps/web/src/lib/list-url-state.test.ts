import { describe, expect, it } from 'vitest';
import { pageQuery, readListState, writeListState } from './list-url-state';

const SHAPE = {
  filters: { status: ['failed', 'completed'], certificate: ['expiring'] },
  sorts: ['created', 'expiry'],
} as const;

describe('a list view in the address', () => {
  it('reads back what it wrote', () => {
    const state = {
      q: 'shop & co',
      filters: { status: 'failed' },
      sort: 'expiry',
      trail: ['abc_-1', 'def2'],
    };
    const search = writeListState(state, SHAPE);
    expect(search).toBe('q=shop+%26+co&status=failed&sort=expiry&page=abc_-1.def2');
    expect(readListState(search, SHAPE)).toEqual(state);
  });

  it('writes nothing for the default view, and trims the search', () => {
    expect(writeListState({ q: '  ', filters: {}, sort: null, trail: [] }, SHAPE)).toBe('');
    expect(writeListState({ q: ' a ', filters: {}, sort: null, trail: [] }, SHAPE)).toBe('q=a');
  });

  it("keeps another list's state beside its own, each under its own names", () => {
    const other = { ...SHAPE, prefix: 'all' };
    const both = writeListState(
      { q: 'x', filters: { status: 'failed' }, sort: null, trail: ['c1'] },
      other,
      'q=mine&page=c0',
    );
    expect(both).toBe('q=mine&page=c0&all_q=x&all_status=failed&all_page=c1');
    expect(readListState(both, SHAPE)).toMatchObject({ q: 'mine', filters: {}, trail: ['c0'] });
    expect(readListState(both, other)).toMatchObject({ q: 'x', filters: { status: 'failed' } });
    // Clearing one list's view leaves the other's.
    expect(writeListState({ q: '', filters: {}, sort: null, trail: [] }, other, both)).toBe(
      'q=mine&page=c0',
    );
  });

  it('drops values the list does not know, and a walk with anything but cursors in it', () => {
    expect(
      readListState('status=hacked&certificate=expiring&sort=name&page=ok.%3Cb%3E', SHAPE),
    ).toEqual({ q: '', filters: { certificate: 'expiring' }, sort: null, trail: [] });
    expect(readListState(`q=${'x'.repeat(300)}`, SHAPE).q).toHaveLength(200);
  });

  it("gives the server the page's parameters: the last cursor of the walk", () => {
    expect(
      pageQuery(
        { q: ' web ', filters: { status: 'failed' }, sort: 'expiry', trail: ['a', 'b'] },
        24,
      ),
    ).toEqual({ limit: '24', q: 'web', status: 'failed', sort: 'expiry', cursor: 'b' });
    expect(pageQuery({ q: '', filters: {}, sort: null, trail: [] }, 10)).toEqual({ limit: '10' });
  });
});
