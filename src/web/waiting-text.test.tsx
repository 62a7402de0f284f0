import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageLoading } from './components/page-loading';
import indexHtml from './index.html?raw';

/** What index.html draws inside #root before any script has run (docs/decisions/042, "The waiting text in the HTML"). */
function rootOfIndexHtml(): HTMLElement {
  const root = new DOMParser().parseFromString(indexHtml, 'text/html').getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  return root;
}

describe("index.html's waiting text", () => {
  it('is the app\'s own wait, element for element, so that nothing moves or changes its words when the app replaces it', () => {
    const { container } = render(<PageLoading />);
    expect(rootOfIndexHtml().innerHTML).toBe(container.innerHTML);
  });

  it('is announced as a status', () => {
    expect(rootOfIndexHtml().querySelector('[role="status"]')?.textContent).toBe('Loading...');
  });
});
