import { describe, expect, it } from 'vitest';
import { brandingOf, escapeHtml } from '#shared/mail/branding.ts';
import { aMerchant } from '#test/support/builders.ts';

describe('brandingOf', () => {
  it('picks a readable header text colour for light and dark primary colours', () => {
    expect(brandingOf(aMerchant({ primaryColor: '#ffff00' }), 'Your account').onPrimaryColor).toBe('#18181b');
    expect(brandingOf(aMerchant({ primaryColor: '#003366' }), 'Your account').onPrimaryColor).toBe('#ffffff');
    expect(brandingOf(aMerchant({ primaryColor: null }), 'Your account').onPrimaryColor).toBe('#ffffff');
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
