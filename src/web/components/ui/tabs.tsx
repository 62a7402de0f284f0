import { createContext, useContext, useId, type ComponentProps, type KeyboardEvent, type MouseEvent } from 'react';
import { cn } from '../../lib/utils';

interface TabsState {
  value: string;
  select(value: string): void;
  idOf(part: 'tab' | 'panel', value: string): string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const tabs = useContext(TabsContext);
  if (!tabs) throw new Error('A tab or tab panel must be inside <Tabs>.');
  return tabs;
}

type TabsProps = Omit<ComponentProps<'div'>, 'onChange'> & { value: string; onValueChange(value: string): void };

/**
 * The WAI-ARIA tabs pattern, its tab chosen by the page (every page keeps it in its address or
 * state). Ours rather than Radix's: its roving focus and collection cost 10 kB on every page with
 * tabs, the sign-in page among them (decision 041).
 */
export function Tabs({ value, onValueChange, ...props }: TabsProps) {
  const baseId = useId();
  const state: TabsState = { value, select: (next) => next !== value && onValueChange(next), idOf: (part, of) => `${baseId}-${part}-${of}` };
  return (
    <TabsContext.Provider value={state}>
      <div {...props} />
    </TabsContext.Provider>
  );
}

/** Arrow keys move along the tabs (round from the last to the first), Home and End to either end; the tab focused is chosen. */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
  const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  const targets: Record<string, number> = { ArrowRight: (at + 1) % tabs.length, ArrowLeft: (at - 1 + tabs.length) % tabs.length, Home: 0, End: tabs.length - 1 };
  const target = targets[event.key];
  if (target === undefined) return;
  event.preventDefault();
  tabs[target]?.focus();
}

/** `grid`: the tabs share the full width in equal columns (the caller's className gives grid-cols-N). */
export function TabsList({ className, layout = 'inline', onKeyDown, ...props }: ComponentProps<'div'> & { layout?: 'inline' | 'grid' }) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={cn('h-9 items-center justify-center rounded-lg bg-muted p-[3px] text-muted-foreground', layout === 'grid' ? 'grid w-full' : 'inline-flex w-fit', className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented) moveFocus(event);
      }}
      {...props}
    />
  );
}

type TabsTriggerProps = Omit<ComponentProps<'button'>, 'value'> & { value: string };

/** Only the chosen tab is in the page's Tab order; the others are reached with the arrow keys. */
export function TabsTrigger({ value, className, onMouseDown, onFocus, ...props }: TabsTriggerProps) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idOf('tab', value)}
      aria-controls={tabs.idOf('panel', value)}
      aria-selected={selected}
      data-state={selected ? 'active' : 'inactive'}
      tabIndex={selected ? 0 : -1}
      className={cn(
        'inline-flex h-full flex-1 items-center justify-center gap-1.5 whitespace-nowrap rounded-md px-3 py-1 text-sm font-medium transition-[color,box-shadow] focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      onMouseDown={(event: MouseEvent<HTMLButtonElement>) => {
        onMouseDown?.(event);
        if (!event.defaultPrevented && event.button === 0 && !event.ctrlKey) tabs.select(value);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      onClick={() => tabs.select(value)}
      {...props}
    />
  );
}

type TabsContentProps = ComponentProps<'div'> & { value: string };

/** The chosen tab's panel; the others are not rendered. */
export function TabsContent({ value, className, ...props }: TabsContentProps) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.idOf('panel', value)}
      aria-labelledby={tabs.idOf('tab', value)}
      tabIndex={0}
      data-state="active"
      className={cn('flex-1 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50', className)}
      {...props}
    />
  );
}
