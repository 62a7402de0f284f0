import { Loader2Icon } from 'lucide-react';
import { cn } from '../../lib/utils';

export function Spinner({ className, size = 'sm', label = 'Loading' }: { className?: string; size?: 'sm' | 'lg'; label?: string }) {
  return <Loader2Icon role="status" aria-label={label} className={cn(size === 'lg' ? 'size-8' : 'size-4', 'animate-spin', className)} />;
}
