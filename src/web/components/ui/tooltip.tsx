import {
  cloneElement,
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useCallback,
  useState,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { HoverIntent, SkipDelay, TOOLTIP_DELAY_MS } from './tooltip-timing';

/** Space between the control and its tooltip, and between the tooltip and the window's edge. */
const GAP_PX = 4;

const SharedSkipDelay = createContext<SkipDelay | null>(null);

/** One provider around the signed-in pages, so the skip delay carries from one tooltip to the next. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  const [skip] = useState(() => new SkipDelay());
  return <SharedSkipDelay.Provider value={skip}>{children}</SharedSkipDelay.Provider>;
}

type Handler<E> = ((event: E) => void) | undefined;

interface ControlProps {
  onPointerMove?: Handler<PointerEvent<HTMLElement>>;
  onPointerLeave?: Handler<PointerEvent<HTMLElement>>;
  onPointerDown?: Handler<PointerEvent<HTMLElement>>;
  onFocus?: Handler<FocusEvent<HTMLElement>>;
  onBlur?: Handler<FocusEvent<HTMLElement>>;
}

/** Above the control if there is room, else below; centred on it and kept inside the window. */
function placeBeside(trigger: DOMRect, tip: DOMRect): { top: number; left: number } {
  const above = trigger.top - GAP_PX - tip.height;
  const top = above >= GAP_PX ? above : trigger.bottom + GAP_PX;
  const centred = trigger.left + trigger.width / 2 - tip.width / 2;
  const left = Math.min(Math.max(GAP_PX, centred), Math.max(GAP_PX, window.innerWidth - tip.width - GAP_PX));
  return { top, left };
}

function contains(rect: DOMRect, x: number, y: number): boolean {
  return x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom;
}

type IconTooltipProps = ControlProps & { label: string; children: ReactElement<ControlProps> } & Record<string, unknown>;

/**
 * Shows `label`, the accessible name of an icon-only control, beside it on hover and on keyboard
 * focus (not on the focus a click gives), until the pointer leaves both, the control loses focus or
 * Escape is pressed (WCAG 1.4.13). `children` is the control: one element. Other props (those a
 * dialog's `asChild` trigger passes when the tooltip is its child, its ref included) reach the control.
 * Our own rather than Radix's, whose tooltip closes itself as it opens on Preact (decision 041).
 */
export function IconTooltip({ label, children, ...passed }: IconTooltipProps) {
  const shared = useContext(SharedSkipDelay);
  const [alone] = useState(() => new SkipDelay());
  const skip = shared ?? alone;
  const id = useId();
  const [trigger, setTrigger] = useState<HTMLElement | null>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const [intent] = useState(() => new HoverIntent());
  const open = trigger !== null;

  const show = useCallback(
    (element: HTMLElement) => {
      intent.cancel();
      setTrigger(element);
    },
    [intent],
  );
  const hide = useCallback(() => {
    intent.cancel();
    setTrigger((was) => {
      if (was) skip.closed();
      return null;
    });
    setPosition(null);
  }, [intent, skip]);

  useEffect(() => () => intent.cancel(), [intent]);

  useLayoutEffect(() => {
    if (trigger && tipRef.current) setPosition(placeBeside(trigger.getBoundingClientRect(), tipRef.current.getBoundingClientRect()));
  }, [trigger]);

  useEffect(() => {
    if (!trigger) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') hide();
    };
    // Off the control the tooltip stays while the pointer is over it or the gap between them.
    const onPointerMove = (event: globalThis.PointerEvent) => {
      if (trigger.contains(event.target as Node) || tipRef.current?.contains(event.target as Node)) return;
      const tip = tipRef.current?.getBoundingClientRect();
      const from = trigger.getBoundingClientRect();
      if (tip) {
        const bridge = new DOMRect(Math.min(from.left, tip.left), Math.min(from.top, tip.top), Math.max(from.right, tip.right) - Math.min(from.left, tip.left), Math.max(from.bottom, tip.bottom) - Math.min(from.top, tip.top));
        if (contains(bridge, event.clientX, event.clientY)) return;
      }
      hide();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointermove', onPointerMove);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointermove', onPointerMove);
    };
  }, [trigger, hide]);

  /** The control's own handler, and the one passed through (a dialog trigger's); false if one prevented the default. */
  const theirs = <E extends { defaultPrevented: boolean }>(name: keyof ControlProps, event: E) => {
    for (const props of [children.props, passed as ControlProps]) (props[name] as Handler<E>)?.(event);
    return !event.defaultPrevented;
  };
  const handlers: ControlProps = {
    onPointerMove: (event) => {
      if (!theirs('onPointerMove', event) || event.pointerType === 'touch' || open || intent.pointerDown) return;
      const element = event.currentTarget;
      if (skip.active) show(element);
      else intent.openAfter(TOOLTIP_DELAY_MS, () => show(element));
    },
    onPointerLeave: (event) => {
      if (theirs('onPointerLeave', event)) intent.cancel();
    },
    onPointerDown: (event) => {
      if (!theirs('onPointerDown', event)) return;
      intent.press();
      hide();
    },
    onFocus: (event) => {
      if (theirs('onFocus', event) && !intent.pointerDown) show(event.currentTarget);
    },
    onBlur: (event) => {
      if (theirs('onBlur', event)) hide();
    },
  };

  return (
    <>
      {cloneElement(children, { ...passed, ...handlers })}
      {open &&
        createPortal(
          <div
            ref={tipRef}
            id={id}
            role="tooltip"
            className="fixed z-50 rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow-md"
            style={position ? { top: position.top, left: position.left } : { top: 0, left: 0, visibility: 'hidden' }}
          >
            {label}
          </div>,
          document.body,
        )}
    </>
  );
}
