import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

function Account() {
  const [tab, setTab] = useState('login');
  return (
    <>
      <button type="button">Before</button>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="login">Login</TabsTrigger>
          <TabsTrigger value="signup">Sign Up</TabsTrigger>
          <TabsTrigger value="reset">Reset</TabsTrigger>
        </TabsList>
        <TabsContent value="login">Log in here</TabsContent>
        <TabsContent value="signup">Sign up here</TabsContent>
        <TabsContent value="reset">Reset here</TabsContent>
      </Tabs>
    </>
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });

describe('Tabs', () => {
  it('shows the chosen tab’s panel alone, named by its tab', () => {
    render(<Account />);
    expect(tab('Login')).toHaveAttribute('aria-selected', 'true');
    expect(tab('Sign Up')).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('tabpanel', { name: 'Login' })).toHaveTextContent('Log in here');
    expect(tab('Login')).toHaveAttribute('aria-controls', screen.getByRole('tabpanel').id);
    expect(screen.queryByText('Sign up here')).not.toBeInTheDocument();
  });

  it('puts only the chosen tab in the Tab order, and moves along the tabs with the arrows, Home and End', async () => {
    render(<Account />);
    await userEvent.click(screen.getByRole('button', { name: 'Before' }));
    await userEvent.tab();
    expect(tab('Login')).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(tab('Sign Up')).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Sign Up' })).toBeInTheDocument();
    await userEvent.keyboard('{End}');
    expect(tab('Reset')).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowRight}');
    expect(tab('Login')).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(tab('Reset')).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(tab('Login')).toHaveAttribute('aria-selected', 'true');
    await userEvent.tab();
    expect(screen.getByRole('tabpanel', { name: 'Login' })).toHaveFocus();
  });

  it('is chosen with a click', async () => {
    render(<Account />);
    await userEvent.click(tab('Reset'));
    expect(screen.getByRole('tabpanel', { name: 'Reset' })).toHaveTextContent('Reset here');
  });
});
