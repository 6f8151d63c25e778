import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "@/lib/api/fetcher";

/**
 * Puts the server's field messages (`validation_failed`'s `fields`, already in the page's
 * language) on the form's fields: those of the same name, or as `fields` maps the server's names
 * to the form's. Returns whether any landed, so the caller knows the form now shows why.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[] | Readonly<Record<string, Path<T>>>,
): boolean {
  if (!(error instanceof ApiError) || !error.body?.fields) return false;
  const formField = (server: string): Path<T> | undefined =>
    Array.isArray(fields) ? (fields.includes(server as Path<T>) ? (server as Path<T>) : undefined) : (fields as Record<string, Path<T>>)[server];
  let placed = false;
  for (const [server, message] of Object.entries(error.body.fields)) {
    const name = formField(server);
    if (name) {
      setError(name, { type: "server", message });
      placed = true;
    }
  }
  return placed;
}
