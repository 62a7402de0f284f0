import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/** A native label: Radix's only adds a guard against selecting its text on a double click, for 3 kB on every form page. */
export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('flex select-none items-center gap-2 text-sm font-medium leading-none peer-disabled:opacity-50', className)} {...props} />;
}
