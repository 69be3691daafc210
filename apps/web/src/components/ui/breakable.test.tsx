import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Breakable } from './breakable';

describe('Breakable', () => {
  it('keeps the text and offers a break after each joint', () => {
    const { container } = render(
      <span>
        <Breakable text="oth-app.example.com" />
      </span>,
    );
    expect(container.textContent).toBe('oth-app.example.com');
    expect(container.querySelectorAll('wbr')).toHaveLength(3);
    expect(container.innerHTML).toBe('<span>oth-<wbr>app.<wbr>example.<wbr>com</span>');
  });

  it('renders markup in the text as text', () => {
    const { container } = render(<Breakable text={'<img src=x onerror=alert(1)>.x'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror=alert(1)>.x');
  });
});
