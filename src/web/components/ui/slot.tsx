import { cloneElement, isValidElement, type HTMLAttributes, type ReactNode, type Ref, type RefCallback } from 'react';

type SlotProps = HTMLAttributes<HTMLElement> & { children?: ReactNode; ref?: Ref<HTMLElement> };
type Props = Record<string, unknown>;

function setRef(ref: Ref<HTMLElement>, node: HTMLElement | null) {
  if (typeof ref === 'function') ref(node);
  else if (ref) ref.current = node;
}

function bothRefs(first: Ref<HTMLElement>, second: Ref<HTMLElement>): RefCallback<HTMLElement> {
  return (node) => {
    setRef(first, node);
    setRef(second, node);
  };
}

/**
 * Renders its one child element with the slot's props merged in (the `asChild` pattern, as a link
 * drawn as a button): both handlers run, the child's first; classes join; styles merge; both refs get
 * the element; otherwise the child's props win. Radix's Slot does the same and more (Slottable, lazy
 * children) that nothing here uses, for 1.7 kB of every page's first load (decision 041).
 */
export function Slot({ children, ref, ...slotProps }: SlotProps) {
  if (!isValidElement<Props>(children)) throw new Error('Slot renders exactly one element child');
  const childProps = children.props;
  const merged: Props = { ...slotProps, ...childProps };
  for (const [name, slotValue] of Object.entries(slotProps) as [string, unknown][]) {
    const childValue = childProps[name];
    if (childValue === undefined) merged[name] = slotValue;
    else if (slotValue === undefined) continue;
    else if (/^on[A-Z]/.test(name) && typeof slotValue === 'function' && typeof childValue === 'function') {
      merged[name] = (...args: unknown[]) => {
        const result: unknown = childValue(...args);
        slotValue(...args);
        return result;
      };
    } else if (name === 'className') merged[name] = `${String(slotValue)} ${String(childValue)}`;
    else if (name === 'style') merged[name] = { ...(slotValue as object), ...(childValue as object) };
  }
  const childRef = (childProps.ref ?? (children as { ref?: Ref<HTMLElement> }).ref) as Ref<HTMLElement> | undefined;
  merged.ref = ref && childRef ? bothRefs(ref, childRef) : (ref ?? childRef);
  return cloneElement(children, merged);
}
