import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_DIST } from '#local/web-server.ts';

/** The build the web project made (its global setup): what the Content-Security-Policy will meet. */
describe('the built pages', () => {
  const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');

  it('hold no inline script and no inline style, only files of their own origin', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\/[\w.-]+\.js"/);
      expect(inline?.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle="|\son\w+="/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('put every script and stylesheet under /assets/ with a content hash (served immutable)', () => {
    const files = readdirSync(join(WEB_DIST, 'assets'));
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(1);
    for (const file of files) expect(file).toMatch(/-[\w-]{8}\.(js|css)$/);
  });
});
