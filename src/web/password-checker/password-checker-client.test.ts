import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InProcessPasswordWorker, UnloadableWorker } from './password-worker.test-support';

// A fresh client each test: it keeps its worker for the page's life.
async function freshClient() {
  vi.resetModules();
  return import('./password-checker-client');
}

beforeEach(() => {
  InProcessPasswordWorker.started = 0;
  UnloadableWorker.started = 0;
});
afterEach(() => vi.unstubAllGlobals());

describe('the password checker client', () => {
  it('asks the module worker and matches each answer to its question', async () => {
    vi.stubGlobal('Worker', InProcessPasswordWorker);
    const { askPasswordChecker } = await freshClient();
    const [common, strong, short] = await Promise.all([
      askPasswordChecker('password123'),
      askPasswordChecker('tangerine orbit quarry 7'),
      askPasswordChecker('short'),
    ]);
    expect(common).toMatchObject({ acceptable: false, message: 'Too easy to guess. This is a commonly used password. Add more words that are less common.' });
    expect(strong).toMatchObject({ acceptable: true, score: 4, message: 'Very strong password.' });
    expect(short).toEqual({ acceptable: false, score: 0, message: 'Use at least 10 characters.' });
    expect(InProcessPasswordWorker.started).toBe(1);
  }, 30_000);

  it("sends the person's name and address as easy guesses", async () => {
    vi.stubGlobal('Worker', InProcessPasswordWorker);
    const { askPasswordChecker } = await freshClient();
    expect((await askPasswordChecker('ada lovelace 1815')).acceptable).toBe(true);
    expect(await askPasswordChecker('ada lovelace 1815', ['Ada Lovelace', 'ada@example.com'])).toMatchObject({ acceptable: false });
  }, 30_000);

  it('wakes one worker on focus and asks that one later', async () => {
    vi.stubGlobal('Worker', InProcessPasswordWorker);
    const { askPasswordChecker, wakePasswordChecker } = await freshClient();
    wakePasswordChecker();
    wakePasswordChecker();
    expect(InProcessPasswordWorker.started).toBe(1);
    await askPasswordChecker('tangerine orbit quarry 7');
    expect(InProcessPasswordWorker.started).toBe(1);
  }, 30_000);

  it('refuses the questions waiting when the worker cannot load, and starts a new one for the next question', async () => {
    vi.stubGlobal('Worker', UnloadableWorker);
    const { askPasswordChecker } = await freshClient();
    await expect(askPasswordChecker('tangerine orbit quarry 7')).rejects.toThrow('The password checker stopped: it could not load');
    vi.stubGlobal('Worker', InProcessPasswordWorker);
    expect(await askPasswordChecker('tangerine orbit quarry 7')).toMatchObject({ acceptable: true });
    expect([UnloadableWorker.started, InProcessPasswordWorker.started]).toEqual([1, 1]);
  }, 30_000);

  it('refuses at once where there are no workers', async () => {
    vi.stubGlobal('Worker', undefined);
    const { askPasswordChecker, wakePasswordChecker } = await freshClient();
    expect(() => wakePasswordChecker()).not.toThrow();
    await expect(askPasswordChecker('tangerine orbit quarry 7')).rejects.toThrow(TypeError);
  });
});
