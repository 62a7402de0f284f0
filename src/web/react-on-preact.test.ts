import * as Compat from 'preact/compat';
import * as Client from 'preact/compat/client';
import * as React from 'react';
import * as ReactDomClient from 'react-dom/client';
import { describe, expect, it } from 'vitest';

// The app and its libraries import React; the build and these tests give them Preact (decision 041).
describe('React in the browser', () => {
  it('is Preact’s compatibility layer, in the tests as in the build', () => {
    expect(React.createElement).toBe(Compat.createElement);
    expect(React.useState).toBe(Compat.useState);
    expect(ReactDomClient.createRoot).toBe(Client.createRoot);
  });
});
