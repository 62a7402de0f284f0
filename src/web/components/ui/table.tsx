import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/** A table that scrolls sideways inside its container rather than widening the page. */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="relative w-full overflow-x-auto">
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-b transition-colors hover:bg-muted/50', className)} {...props} />;
}

/** A column's heading is muted; a row's (scope="row") names its row, in the text's own colour. */
export function TableHead({ className, align = 'left', scope, ...props }: Omit<ComponentProps<'th'>, 'align'> & { align?: 'left' | 'right' }) {
  return (
    <th
      scope={scope}
      className={cn('h-10 whitespace-nowrap px-2 align-middle font-medium', align === 'right' ? 'text-right' : 'text-left', scope === 'row' ? 'text-foreground' : 'text-muted-foreground', className)}
      {...props}
    />
  );
}

/** `wrap`: its text wraps rather than staying on one line. */
export function TableCell({ className, wrap = false, ...props }: ComponentProps<'td'> & { wrap?: boolean }) {
  return <td className={cn(wrap ? 'whitespace-normal' : 'whitespace-nowrap', 'p-2 align-middle', className)} {...props} />;
}
