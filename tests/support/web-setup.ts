import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { options } from 'preact';
import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';

// jsdom has no matchMedia; tests that care about the OS preference replace this stub.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: vi.fn((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      addListener: vi.fn(),
      removeListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  });
}

// Preact runs effects after the next frame: a requestAnimationFrame raced by a 35 ms timer, whose
// cancelAnimationFrame then fails once a test file's window is gone. A frame's time on a timer alone
// keeps the order of things as in a browser and outlives the window.
const FRAME_MS = 16;
options.requestAnimationFrame = (flush) => {
  setTimeout(flush, FRAME_MS);
};

// findBy and waitFor wait up to 5 s rather than 1: a page's lazy chunks and effects take longer on a
// CI machine running two test files beside the suite's servers.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.dismiss();
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.documentElement.className = '';
});
