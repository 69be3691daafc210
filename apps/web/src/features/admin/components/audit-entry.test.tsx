import type { TAuditEntry } from '@portico/shared/admin/api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { AuditEntry } from './audit-entry';

const entry: TAuditEntry = {
  id: 12,
  actorId: 'a1',
  actorUsername: 'root-admin',
  action: 'proxy.admin_edit',
  targetType: 'proxy_configuration',
  targetId: '00000000-0000-4000-8000-000000000001',
  targetOwnerId: 'u2',
  changes: [
    { field: 'targetServer', before: 'http://10.0.0.5:8080', after: 'http://10.0.0.6:9090' },
    { field: 'sshPort', before: null, after: 2222 },
  ],
  createdAt: new Date(2026, 10, 22, 9, 5, 7).toISOString(),
};

describe('audit entry', () => {
  it('en: time, actor, action in words, target and each change before → after', async () => {
    await renderWithProviders(
      <ol>
        <AuditEntry entry={entry} />
      </ol>,
      { lang: 'en' },
    );
    expect(screen.getByTestId('audit-time').textContent).toBe('2026-11-22 09:05:07');
    expect(screen.getByTestId('audit-actor').textContent).toBe('root-admin');
    expect(screen.getByTestId('audit-action').textContent).toBe('edited as admin');
    expect(screen.getByTestId('audit-target').textContent).toBe(`proxy ${entry.targetId}`);
    const changes = screen
      .getAllByTestId('audit-change')
      .map((c) => c.textContent?.replace(/\s+/g, ' '));
    expect(changes).toEqual([
      'Target server: http://10.0.0.5:8080 http://10.0.0.6:9090',
      'SSH port: (empty) 2222',
    ]);
    expect(screen.getAllByLabelText('changed to')).toHaveLength(2);
  });

  it('es: the action and empty value in Spanish; an unknown action is shown in words', async () => {
    await renderWithProviders(
      <ol>
        <AuditEntry entry={{ ...entry, action: 'proxy.delete_with_removal', changes: [] }} />
        <AuditEntry entry={{ ...entry, id: 13, action: 'proxy.renamed_by_robot' }} />
      </ol>,
    );
    const actions = screen.getAllByTestId('audit-action').map((a) => a.textContent);
    expect(actions).toEqual(['eliminó y quitó del servidor', 'proxy renamed by robot']);
    expect(screen.getAllByTestId('audit-target')[0]?.textContent).toBe(
      `el proxy ${entry.targetId}`,
    );
    expect(screen.getAllByTestId('audit-change')[1]?.textContent?.replace(/\s+/g, ' ')).toBe(
      'Puerto SSH: (vacío) 2222',
    );
  });

  it('en: a role change names the user and shows the role before → after', async () => {
    await renderWithProviders(
      <ol>
        <AuditEntry
          entry={{
            ...entry,
            action: 'admin.user.role',
            targetType: 'user',
            targetId: 'u2',
            changes: [{ field: 'role', before: 'user', after: 'admin' }],
          }}
          targetName="bob"
        />
      </ol>,
      { lang: 'en' },
    );
    expect(screen.getByTestId('audit-action').textContent).toBe('changed the role of');
    expect(screen.getByTestId('audit-target').textContent).toBe('user bob');
    expect(screen.getByTestId('audit-change').textContent?.replace(/\s+/g, ' ')).toBe(
      'Role: User Admin',
    );
  });

  it('es: fields by their labels; a secret reads changed; statuses as on the cards', async () => {
    await renderWithProviders(
      <ol>
        <AuditEntry
          entry={{
            ...entry,
            action: 'proxy.save',
            changes: [
              { field: 'sshPasswordEnc', before: null, after: '[changed]' },
              { field: 'status', before: 'completed', after: 'pending' },
              { field: 'hostKeyFingerprint', before: 'SHA256:abc', after: null },
              { field: 'somethingNew', before: 1, after: 2 },
            ],
          }}
        />
      </ol>,
    );
    const changes = screen
      .getAllByTestId('audit-change')
      .map((c) => c.textContent?.replace(/\s+/g, ' '));
    expect(changes).toEqual([
      'Contraseña SSH: (vacío) cambiada (el valor no se registra)',
      'Estado: Activo Pendiente',
      'Huella de la clave del host: SHA256:abc (vacío)',
      'somethingNew: 1 2',
    ]);
  });

  it.each([
    ['en', 'created an API token for', 'Token access: (empty) read only'],
    ['es', 'creó un token de API de', 'Acceso del token: (vacío) solo lectura'],
  ] as const)('%s: account actions read in words', async (lang, action, change) => {
    await renderWithProviders(
      <ol>
        <AuditEntry
          entry={{
            ...entry,
            action: 'account.token_create',
            targetType: 'user',
            changes: [{ field: 'tokenScope', before: null, after: 'read' }],
          }}
          targetName="ana"
        />
      </ol>,
      { lang },
    );
    expect(screen.getByTestId('audit-action').textContent).toBe(action);
    expect(screen.getByTestId('audit-target').textContent).toBe(
      `${lang === 'en' ? 'user' : 'el usuario'} ana`,
    );
    expect(screen.getByTestId('audit-change').textContent?.replace(/\s+/g, ' ')).toBe(change);
  });
});
