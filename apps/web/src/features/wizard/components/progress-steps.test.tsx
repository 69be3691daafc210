import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ProgressSteps } from './progress-steps';

describe.each([
  ['en', ['Server Info', 'Validation', 'Destination', 'Deployment', 'Completion']],
  ['es', ['Información del servidor', 'Validación', 'Destino', 'Despliegue', 'Finalización']],
] as const)('progress indicator (%s)', (lang, titles) => {
  it('marks steps completed, current and pending, with checks for completed ones', async () => {
    const steps = {
      'server-info': 'completed',
      'dns-validation': 'completed',
      destination: 'current',
      deploy: 'pending',
      complete: 'pending',
    } as const;
    await renderWithProviders(<ProgressSteps current="destination" steps={steps} />, { lang });
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.dataset.status)).toEqual([
      'completed',
      'completed',
      'current',
      'pending',
      'pending',
    ]);
    expect(items[2]?.getAttribute('aria-current')).toBe('step');
    titles.forEach((title, i) => {
      expect(items[i]?.textContent).toContain(title);
    });
    // Completed circles show a check instead of their number.
    expect(items[0]?.textContent).not.toContain('1');
    expect(items[3]?.textContent).toContain('4');
  });
});
