import { describe, expect, it } from 'vitest';
import { landingFileName, landingPage } from './prerender-landing';

const TEMPLATE = `<!doctype html>
<html lang="es">
  <head><script type="module" src="/assets/index-abc.js"></script></head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('landingPage', () => {
  it('puts the markup in the root, marked with its language, and sets <html lang>', () => {
    const html = landingPage(
      TEMPLATE,
      'en',
      '<main><h1>Your domain</h1></main>',
      'assets/en-catalog-x1.js',
    );
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(
      '<div id="root" data-prerendered="en"><main><h1>Your domain</h1></main></div>',
    );
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/en-catalog-x1.js">\n  </head>',
    );
    // The rest of the page (its scripts) is the built index.html's.
    expect(html).toContain('<script type="module" src="/assets/index-abc.js"></script>');
    expect(landingFileName('en')).toBe('landing-en.html');
  });

  it('keeps "$" sequences of the markup as they are', () => {
    expect(landingPage(TEMPLATE, 'es', "<h1>$& $1 $'</h1>", 'assets/c.js')).toContain(
      "<h1>$& $1 $'</h1>",
    );
  });

  it('fails the build on a template it does not expect, or markup without a heading', () => {
    expect(() =>
      landingPage(TEMPLATE.replace('<div id="root"></div>', ''), 'es', '<h1>x</h1>', 'assets/c.js'),
    ).toThrow(/single/);
    expect(() =>
      landingPage(TEMPLATE.replace(' lang="es"', ''), 'es', '<h1>x</h1>', 'assets/c.js'),
    ).toThrow(/lang/);
    expect(() => landingPage(TEMPLATE, 'es', '<div>spinner</div>', 'assets/c.js')).toThrow(
      /heading/,
    );
  });
});
