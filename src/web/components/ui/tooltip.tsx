import { Tooltip as TooltipPrimitive } from 'radix-ui';
import { createContext, useContext, type ComponentProps, type ReactElement, type ReactNode } from 'react';

/** docs/product.md §9: a tooltip opens after 700 ms of hover; the next one within 300 ms opens at once. */
const TOOLTIP_DELAY_MS = 700;
const TOOLTIP_SKIP_DELAY_MS = 300;

const InsideTooltipProvider = createContext(false);

/** One provider around the signed-in pages, so the skip delay carries from one tooltip to the next. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <InsideTooltipProvider.Provider value>{children}</InsideTooltipProvider.Provider>
    </TooltipPrimitive.Provider>
  );
}

type IconTooltipProps = Omit<ComponentProps<typeof TooltipPrimitive.Trigger>, 'asChild' | 'children'> & { label: string; children: ReactElement };

/**
 * Shows `label`, the accessible name of an icon-only control, beside it on hover and on keyboard
 * focus. `children` is the control: one element that takes a ref. Other props (those a dialog's
 * `asChild` trigger passes when the tooltip is its child) reach the control too.
 */
export function IconTooltip({ label, children, ...triggerProps }: IconTooltipProps) {
  const tooltip = (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild {...triggerProps}>
        {children}
      </TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content sideOffset={4} className="z-50 rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow-md">
          {label}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
  // A component rendered outside the app's providers (on its own in a test) still gets the same delays.
  return useContext(InsideTooltipProvider) ? tooltip : <TooltipProvider>{tooltip}</TooltipProvider>;
}
