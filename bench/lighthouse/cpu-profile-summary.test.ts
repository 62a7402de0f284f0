import { describe, expect, it } from 'vitest';
import { byPackage, type CpuProfile, fileTimes, packageOf } from './cpu-profile-summary';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });
// root → app (line 1 of app.js) → render (line 9 of framework.js); idle beside them.
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4] },
    { id: 2, callFrame: frame('main', '/assets/app.js', 1), children: [3] },
    { id: 3, callFrame: frame('render', '/assets/framework.js', 9) },
    { id: 4, callFrame: frame('(idle)') },
  ],
  samples: [2, 3, 3, 4, 3],
  timeDeltas: [1000, 2000, 2000, 50_000, 1000],
};
const locate = (url: string, line: number) => (url.endsWith('framework.js') ? '../../node_modules/preact/dist/preact.mjs' : `../../src/web/app.tsx:${line}`.replace(/:\d+$/, ''));

describe('a CPU profile summed per source file', () => {
  it('counts self time where V8 was, inclusive time for every file on the stack, and leaves idle out', () => {
    const { self, inclusive, busyMs } = fileTimes(profile, locate);
    expect(busyMs).toBe(6);
    expect(Object.fromEntries(self)).toEqual({ '../../src/web/app.tsx': 1, '../../node_modules/preact/dist/preact.mjs': 5 });
    expect(Object.fromEntries(inclusive)).toEqual({ '../../src/web/app.tsx': 6, '../../node_modules/preact/dist/preact.mjs': 5 });
  });

  it('groups files by package, or by folder for the app', () => {
    expect(packageOf('../../node_modules/@tanstack/query-core/build/modern/query.js')).toBe('@tanstack/query-core');
    expect(packageOf('../../src/web/lib/session.ts')).toBe('src/web/lib');
    expect(Object.fromEntries(byPackage(fileTimes(profile, locate).self))).toEqual({ 'src/web': 1, preact: 5 });
  });
});
