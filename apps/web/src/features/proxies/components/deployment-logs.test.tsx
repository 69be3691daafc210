import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LogLine } from '@/lib/live-deployment/log-panel';
import { serverLine, type TLogLine } from '@/lib/live-deployment/logs';
import { useLogText } from '@/lib/log-text';
import { renderWithProviders } from '@/test/render';
import { DeploymentLogs } from './deployment-logs';

const at = new Date(2026, 0, 5, 7, 8, 9).toISOString();
const entry = (id: number, level: TLogLine['level'], message: string, run = 'd1'): TLogLine =>
  serverLine({ id, deploymentId: run, level, message, text: null, timestamp: at });

function Line({ entry }: { entry: TLogLine }) {
  return <LogLine line={entry} words={useLogText()} />;
}

describe('log line', () => {
  it('shows the level in upper case, the message and the time', async () => {
    const { container } = await renderWithProviders(
      <ol>
        <Line entry={entry(1, 'warning', 'port 80 answered 502')} />
      </ol>,
      { lang: 'en' },
    );
    const li = container.querySelector('li')!;
    expect(li.textContent).toContain('WARNING');
    expect(li.textContent).toContain('port 80 answered 502');
    expect(li.querySelector('time')?.textContent).toBe('07:08:09');
    expect(li.className).not.toContain('bg-destructive-soft');
  });

  it('draws error lines in the destructive style', async () => {
    const { container } = await renderWithProviders(
      <ol>
        <Line entry={entry(2, 'error', 'certbot failed')} />
      </ol>,
    );
    const li = container.querySelector('li')!;
    expect(li.textContent).toContain('ERROR');
    expect(li.className).toContain('text-destructive');
    expect(li.getAttribute('data-level')).toBe('error');
  });

  it('on a Spanish screen shows the level and Portico’s words in Spanish, whoever started the run', async () => {
    const line: TLogLine = {
      ...entry(3, 'success', 'nginx -t passed.'),
      text: { key: 'deployLog.nginx.testPassed' },
    };
    const { container } = await renderWithProviders(
      <ol>
        <Line entry={line} />
      </ol>,
      { lang: 'es' },
    );
    const li = container.querySelector('li')!;
    expect(li.textContent).toContain('ÉXITO');
    expect(li.textContent).toContain('nginx -t correcto.');
    expect(li.textContent).not.toContain('passed');
  });
});

describe.each([
  ['en', 'No logs available', 'Refresh'],
  ['es', 'No hay registros disponibles', 'Actualizar'],
] as const)('deployment logs card (%s)', (lang, empty, refresh) => {
  it('says when there are no logs and refreshes on request', async () => {
    const onRefresh = vi.fn();
    await renderWithProviders(
      <DeploymentLogs lines={[]} loading={false} onRefresh={onRefresh} live={false} />,
      { lang },
    );
    expect(screen.getByTestId('logs-empty').textContent).toBe(empty);
    fireEvent.click(screen.getByRole('button', { name: refresh }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('lists lines grouped by run in a scrollable panel', async () => {
    await renderWithProviders(
      <DeploymentLogs
        lines={[entry(1, 'info', 'a'), entry(2, 'success', 'b'), entry(3, 'error', 'c', 'd2')]}
        loading={false}
        onRefresh={() => {}}
        live
      />,
      { lang },
    );
    const panel = screen.getByTestId('logs-panel');
    expect(panel.className).toContain('max-h-96');
    expect(panel.querySelectorAll('ol')).toHaveLength(2);
    expect([...panel.querySelectorAll('li')].map((li) => li.getAttribute('data-level'))).toEqual([
      'info',
      'success',
      'error',
    ]);
    expect(screen.getByTestId('logs-live')).toBeTruthy();
  });
});
