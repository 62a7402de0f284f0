import { describe, expect, it } from 'vitest';
import { cn } from './utils';

describe('cn', () => {
  it('joins the truthy classes in their order and drops the falsy ones', () => {
    expect(cn('flex', false, 'gap-2', null, undefined, 0, '', 'px-4')).toBe('flex gap-2 px-4');
  });

  it('takes nested arrays and objects of conditions', () => {
    const active = true;
    expect(cn(['rounded-md', [active && 'bg-accent', !active && 'bg-muted']], { 'font-medium': active, 'opacity-50': !active })).toBe('rounded-md bg-accent font-medium');
  });

  it('keeps both of two classes for the same property: it does not merge them', () => {
    expect(cn('px-4 text-sm', 'px-2')).toBe('px-4 text-sm px-2');
  });
});
