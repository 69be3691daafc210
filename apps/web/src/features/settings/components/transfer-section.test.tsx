import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { TransferSection } from './transfer-section';

// The import's file picker speaks the reader's language: the browser's own button ("Choose
// File", "No file chosen") is never what the reader sees, and the chosen file is named.
describe('the import file picker', () => {
  it.each([
    ['en', 'Choose a file', 'No file chosen'],
    ['es', 'Elegir un archivo', 'Ningún archivo elegido'],
  ] as const)(
    'is ours, in the reader’s language, and names the chosen file (%s)',
    async (lang, choose, none) => {
      await renderWithProviders(<TransferSection />, { lang });
      const input = screen.getByTestId('transfer-import-file') as HTMLInputElement;
      // The native control is there for the keyboard and the picker, not to be seen.
      expect(input.className).toContain('sr-only');
      expect(document.querySelector(`label[for="${input.id}"].cursor-pointer`)?.textContent).toBe(
        choose,
      );
      expect(screen.getByTestId('transfer-import-file-name').textContent).toBe(none);
      const file = new File(['{}'], 'portico-export-2026-12-06.json', { type: 'application/json' });
      await act(async () => {
        fireEvent.change(input, { target: { files: [file] } });
      });
      expect(screen.getByTestId('transfer-import-file-name').textContent).toBe(
        'portico-export-2026-12-06.json',
      );
    },
  );
});
