// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { designerLabel } from './item-label.js';

function pick(html: string, selector: string): Element {
  document.body.innerHTML = html;
  const el = document.querySelector(selector);
  if (!el) throw new Error(`no ${selector}`);
  return el;
}

describe('designer labels', () => {
  it('names buttons and links by their text, button-looking links as buttons', () => {
    expect(designerLabel(pick('<button> Start   free </button>', 'button'))).toBe("Button 'Start free'");
    expect(designerLabel(pick('<a class="btn btn-primary" href="#">Get started</a>', 'a'))).toBe(
      "Button 'Get started'",
    );
    expect(designerLabel(pick('<a href="/about">About us</a>', 'a'))).toBe("Link 'About us'");
  });

  it('names a section by its heading, not by all its text', () => {
    const html =
      '<section id="s"><h2>Services</h2><p>We build things that last for a long time.</p></section>';
    expect(designerLabel(pick(html, '#s'))).toBe("Section 'Services'");
  });

  it('counts alike siblings: Card 2 of 3', () => {
    const card = (t: string) => `<div class="col card"><h3>${t}</h3><p>…</p></div>`;
    const html = `<div class="row">${card('Basic')}${card('Pro')}${card('Team')}</div>`;
    expect(designerLabel(pick(html, '.card:nth-child(2)'))).toBe("Card 2 of 3 'Pro'");
  });

  it('uses what the page announces: aria-label, alt', () => {
    expect(designerLabel(pick('<nav aria-label="Main menu"><a>x</a></nav>', 'nav'))).toBe(
      "Navigation 'Main menu'",
    );
    expect(designerLabel(pick('<img alt="Team photo" src="a.png">', 'img'))).toBe("Image 'Team photo'");
  });

  it('names a field by its label or placeholder, never by the value typed in it', () => {
    const html = '<label for="e">Email</label><input id="e" value="me@secret.test">';
    expect(designerLabel(pick(html, 'input'))).toBe("Field 'Email'");
    const el = pick('<input placeholder="Search docs">', 'input') as HTMLInputElement;
    el.value = 'private words';
    expect(designerLabel(el)).toBe("Field 'Search docs'");
  });

  it('shortens long text and calls the whole page a page', () => {
    const long = 'A heading that goes on and on well past any list width';
    expect(designerLabel(pick(`<h1>${long}</h1>`, 'h1'))).toBe("Heading 'A heading that goes on and on w…'");
    expect(designerLabel(document.body)).toBe('Page');
  });
});
