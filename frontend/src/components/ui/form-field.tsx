"use client";

import { useId, type ReactNode } from "react";
import { Controller, type Control, type ControllerRenderProps, type FieldPath, type FieldValues } from "react-hook-form";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

/** What a field's control receives: react-hook-form's field, with the ids and state that tie it to its label and message. */
type FieldControlProps<T extends FieldValues, N extends FieldPath<T>> = ControllerRenderProps<T, N> & {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

/**
 * The one form field of the site (shadcn's react-hook-form shape): a label, the control (given
 * its id, aria-invalid and the id of its message), then the schema's or the server's message,
 * or a hint while there is none.
 */
export function FormField<T extends FieldValues, N extends FieldPath<T>>({
  control,
  name,
  label,
  hint,
  id: givenId,
  className,
  labelClassName,
  orientation = "vertical",
  children,
}: {
  control: Control<T>;
  name: N;
  label: ReactNode;
  hint?: ReactNode;
  /** A fixed id, when something outside the form points at the control. */
  id?: string;
  className?: string;
  labelClassName?: string;
  /** "horizontal": the control before its label on one line (a checkbox). */
  orientation?: "vertical" | "horizontal";
  children: (control: FieldControlProps<T, N>) => ReactNode;
}) {
  const generated = useId();
  const id = givenId ?? `${generated}-${name}`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const message = fieldState.error?.message;
        const describedBy = message ? `${id}-error` : hint ? `${id}-hint` : undefined;
        const labelled = <Label htmlFor={id} className={labelClassName}>{label}</Label>;
        const controlled = children({ ...field, id, "aria-invalid": message ? true : undefined, "aria-describedby": describedBy });
        return (
          <div className={cn("grid content-start gap-1.5", className)} data-invalid={message ? true : undefined}>
            {orientation === "horizontal" ? (
              <div className="flex items-start gap-3">
                {controlled}
                {labelled}
              </div>
            ) : (
              <>
                {labelled}
                {controlled}
              </>
            )}
            {message ? (
              <p id={`${id}-error`} className="text-sm font-medium text-danger-strong">
                {message}
              </p>
            ) : hint ? (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {hint}
              </p>
            ) : null}
          </div>
        );
      }}
    />
  );
}
