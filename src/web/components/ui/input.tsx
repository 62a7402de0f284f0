import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/** `textSize="lg"`: larger text on a narrow screen (from md up, text-sm either way). */
export function Input({ className, type, textSize = 'base', ...props }: ComponentProps<'input'> & { textSize?: 'base' | 'lg' }) {
  return (
    <input
      type={type}
      className={cn(
        'flex h-9 w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-1 shadow-xs outline-none transition-[color,box-shadow] placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive md:text-sm',
        textSize === 'lg' ? 'text-lg' : 'text-base',
        className,
      )}
      {...props}
    />
  );
}
