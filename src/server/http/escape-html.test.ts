import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html';

describe('escapeHtml', () => {
  it('turns every character that could open markup or close an attribute into an entity', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
  });

  it('leaves other text as it is', () => {
    expect(escapeHtml('Call +1 (415) 555-0100, café')).toBe('Call +1 (415) 555-0100, café');
  });
});
