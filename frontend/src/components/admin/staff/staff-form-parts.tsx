"use client";

import type { ComponentProps } from "react";
import { useTranslations } from "next-intl";
import { AlertTriangle } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { NativeSelect } from "@/components/ui/native-select";
import { STAFF_ROLES } from "@/lib/admin/permissions";

/** The four roles as a select, each by its name in the panel's language. */
export function RoleSelect(props: ComponentProps<typeof NativeSelect>) {
  const t = useTranslations("admin.staff");
  return (
    <NativeSelect {...props}>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`roles.${role}`)}
        </option>
      ))}
    </NativeSelect>
  );
}

/** A staff change the server refused, said inside the dialog that asked for it. */
export function StaffRefusal({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert variant="destructive" data-testid="staff-refused">
      <AlertTriangle aria-hidden />
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
