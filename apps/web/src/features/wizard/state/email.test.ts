import { describe, expect, it } from 'vitest';
import { autoFillEmail } from './email';

describe('e-mail auto-fill', () => {
  it('fills an empty e-mail with admin@ the domain', () => {
    expect(autoFillEmail('example.com', '')).toBe('admin@example.com');
  });

  it('follows the domain while the e-mail still starts with admin', () => {
    expect(autoFillEmail('app.example.com', 'admin@example.com')).toBe('admin@app.example.com');
    expect(autoFillEmail('a.example.org', 'admin@a.example.co')).toBe('admin@a.example.org');
    expect(autoFillEmail('x.io', 'administrator@other.net')).toBe('admin@x.io');
  });

  it('keeps an address the user chose', () => {
    expect(autoFillEmail('example.com', 'jane@mail.net')).toBe('jane@mail.net');
  });

  it('lower-cases and trims the domain', () => {
    expect(autoFillEmail('  App.Example.COM ', '')).toBe('admin@app.example.com');
  });

  it('clears the generated address when the domain is emptied', () => {
    expect(autoFillEmail('', 'admin@example.com')).toBe('');
    expect(autoFillEmail('', 'jane@mail.net')).toBe('jane@mail.net');
  });
});
