import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';
import { Slot } from './slot';

/**
 * cn joins classes without merging them, so a caller's className must not restate what the variant or
 * size sets: for other colours, sizes or alignment it picks a variant, a size or `justify`. The `custom`
 * size sets no height, padding, gap, corners or text size, for a className that gives them all.
 */
export const buttonVariants = cva(
  "inline-flex shrink-0 items-center whitespace-nowrap font-medium outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 [&_svg]:pointer-events-none [&_svg:not([class*='size-'])]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-xs hover:bg-primary/90',
        destructive: 'bg-destructive text-white shadow-xs hover:bg-destructive/90 dark:bg-destructive/60 dark:hover:bg-destructive/50',
        outline: 'border bg-background shadow-xs hover:bg-accent hover:text-accent-foreground',
        'outline-destructive': 'border bg-background text-destructive shadow-xs hover:bg-accent hover:text-destructive',
        secondary: 'bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80',
        ghost: 'hover:bg-accent hover:text-accent-foreground',
        'ghost-destructive': 'text-destructive hover:bg-accent hover:text-destructive',
        link: 'text-primary underline-offset-4 hover:underline',
        /** Places or answers a call. */
        call: 'bg-green-700 text-white shadow-xs hover:bg-green-800',
      },
      size: {
        default: 'h-9 gap-2 rounded-md px-4 py-2 text-sm',
        sm: 'h-8 gap-2 rounded-md px-3 text-sm',
        lg: 'h-10 gap-2 rounded-md px-6 text-sm',
        icon: 'size-9 gap-2 rounded-md text-sm',
        /** size-8 on a narrow screen, size-9 from sm up. */
        'icon-responsive': 'size-8 gap-2 rounded-md text-sm sm:size-9',
        /** A link in a line of text or beside a label: no height or side padding of its own. */
        inline: 'h-auto gap-2 rounded-md px-0 text-sm',
        custom: '',
      },
      justify: {
        center: 'justify-center',
        /** The content at both ends (a label and a chevron). */
        between: 'justify-between',
      },
    },
    defaultVariants: { variant: 'default', size: 'default', justify: 'center' },
  },
);

export function Button({
  className,
  variant,
  size,
  justify,
  asChild = false,
  type = 'button',
  ...props
}: ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
  const Component = asChild ? Slot : 'button';
  return <Component className={cn(buttonVariants({ variant, size, justify, className }))} type={asChild ? undefined : type} {...props} />;
}
