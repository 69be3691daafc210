import { describe, expect, it } from 'vitest';
import { referencesFirst } from './table-copy';

describe('referencesFirst', () => {
  it('puts every table after the tables it references; a reference to itself does not count', () => {
    const order = referencesFirst(
      ['deployment_logs', 'deployments', 'proxy_configurations', 'users', 'audit_log'],
      [
        ['deployment_logs', 'deployments'],
        ['deployments', 'proxy_configurations'],
        ['proxy_configurations', 'users'],
        ['audit_log', 'users'],
        ['users', 'users'],
      ],
    );
    expect(order).toEqual([
      'users',
      'audit_log',
      'proxy_configurations',
      'deployments',
      'deployment_logs',
    ]);
  });

  it('refuses a loop it cannot order', () => {
    expect(() =>
      referencesFirst(
        ['a', 'b'],
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
      ),
    ).toThrow('reference each other');
  });
});
