import type { ComponentProps, ReactNode } from 'react';
import { Input } from './ui/input';
import { Label } from './ui/label';

interface FormFieldProps extends ComponentProps<typeof Input> {
  id: string;
  label: ReactNode;
  /** Beside the label, e.g. a 'Forgot password?' link. */
  labelAction?: ReactNode;
  /** Shown under the input, and read with it by screen readers. */
  hint?: ReactNode;
  /** Marks the input invalid, is read with it, and is announced as it appears; null when the value is fine. */
  error?: string | null;
  /** Shown last, under the hint and the error. */
  children?: ReactNode;
}

/** A labelled input with its hint and error text, wired to it through aria-describedby and aria-invalid. */
export function FormField({ id, label, labelAction, hint, error, children, ...inputProps }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [inputProps['aria-describedby'], hintId, errorId].filter(Boolean).join(' ');
  const labelElement = <Label htmlFor={id}>{label}</Label>;

  return (
    <div className="flex flex-col gap-2">
      {labelAction ? (
        <div className="flex items-center justify-between gap-2">
          {labelElement}
          {labelAction}
        </div>
      ) : (
        labelElement
      )}
      <Input
        id={id}
        {...inputProps}
        aria-invalid={error ? true : inputProps['aria-invalid']}
        aria-describedby={describedBy || undefined}
      />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {children}
    </div>
  );
}
