import { get, useFormState, type FieldError, type FieldValues, type Path } from 'react-hook-form';
import { Label } from '../../../components/ui/label';
import type { ZodForm } from '../../../lib/zod-form';

interface MessageFieldProps<T extends FieldValues> {
  form: ZodForm<T>;
  name: Path<T>;
  id: string;
  label: string;
  hint: string;
}

/** A labelled text area of a useZodForm form, its hint and error read with it, as FormInput does for an input. */
export function MessageField<T extends FieldValues>({ form, name, id, label, hint }: MessageFieldProps<T>) {
  const { errors } = useFormState({ control: form.control, name });
  const error = (get(errors, name) as FieldError | undefined)?.message;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <textarea
        id={id}
        rows={6}
        {...form.register(name)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        className="flex min-h-24 w-full rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs outline-none transition-[color,box-shadow] placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive md:text-sm"
      />
      <p id={hintId} className="text-sm text-muted-foreground">
        {hint}
      </p>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
