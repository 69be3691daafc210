import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ProxyStatusBadge } from './proxy-status-badge';

describe('proxy status badge', () => {
  it.each([
    ['en', 'Deploying'],
    ['es', 'Desplegando'],
  ] as const)(
    'shows a deployment in progress with a spinner, not in red (%s)',
    async (lang, label) => {
      await renderWithProviders(<ProxyStatusBadge status="deploying" />, { lang });
      const badge = screen.getByTestId('proxy-status');
      expect(badge.textContent).toBe(label);
      expect(badge.querySelector('svg.animate-spin')?.getAttribute('aria-hidden')).toBe('true');
      expect(badge.className).toContain('text-primary');
      expect(badge.className).not.toContain('destructive');
    },
  );

  it('is red for a failure and has no spinner outside a deployment', async () => {
    for (const status of PROXY_STATUSES.filter((s) => s !== 'deploying')) {
      const { unmount } = await renderWithProviders(<ProxyStatusBadge status={status} />);
      const badge = screen.getByTestId('proxy-status');
      expect(badge.querySelector('svg'), status).toBeNull();
      expect(badge.className.includes('text-destructive'), status).toBe(
        status === 'failed' || status === 'error',
      );
      unmount();
    }
  });
});
