"use client";

import { useState } from "react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { KeyRound, UserCheck, UserCog, UserX } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { isStaffRole } from "@/lib/admin/permissions";
import type { HandedOver, StaffMember } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { useInvalidate } from "@/lib/swr/cache";
import { useStaff } from "@/lib/swr/use-staff";
import { cn } from "@/lib/utils";
import { CardFact, CatalogCard, CatalogTab } from "../catalog-tab";

const NewAccountDialog = dynamic(() => import("./new-account-dialog").then((m) => m.NewAccountDialog), { ssr: false });
const RoleDialog = dynamic(() => import("./role-dialog").then((m) => m.RoleDialog), { ssr: false });
const AccessDialog = dynamic(() => import("./access-dialog").then((m) => m.AccessDialog), { ssr: false });
const HandedOverDialog = dynamic(() => import("./handed-over-dialog").then((m) => m.HandedOverDialog), { ssr: false });

/** What an owner is doing to an account: its role, disabling or enabling it, or a new password. */
type Acting = { kind: "role" | "access" | "reset"; member: StaffMember };

/**
 * 'Equipo' (the staff permission, owners): every account with its role, state and last sign-in,
 * a table from `md` up and cards on phones. An owner creates accounts, changes roles, disables
 * and enables, and resets passwords, never their own (the server refuses it too): a new password
 * is shown once, to hand over. Each change reads the team and the trail again.
 */
export function StaffTab({ self }: { self: number }) {
  const t = useTranslations("admin.staff");
  const locale = useLocale();
  const { data: staff, isLoading, error, mutate } = useStaff();
  const [adding, setAdding] = useState(false);
  const [acting, setActing] = useState<Acting | null>(null);
  const [handedOver, setHandedOver] = useState<{ reset: boolean; handed: HandedOver } | null>(null);
  const refresh = useInvalidate().staff;

  const roleName = (role: string) => (isStaffRole(role) ? t(`roles.${role}`) : role);
  const name = (m: StaffMember) => (
    <span className="flex min-w-0 flex-wrap items-center gap-1.5">
      <span className="wrap-anywhere font-medium">{m.username}</span>
      {m.id === self && (
        <Badge variant="outline" data-testid="staff-you">
          {t("you")}
        </Badge>
      )}
    </span>
  );
  const state = (m: StaffMember) => (
    <span className="flex flex-wrap gap-1">
      <Badge variant={m.disabled ? "destructive" : "success"}>{m.disabled ? t("disabled") : t("active")}</Badge>
      {m.mustChangePassword && <Badge variant="warning">{t("temporary")}</Badge>}
    </span>
  );
  // The table's six columns need the short form of the moments; the phone's cards have room for the longer one.
  const lastSignIn = (m: StaffMember, style?: "short") => (m.lastSignInAt ? formatDateTime(m.lastSignInAt, locale, style) : t("never"));

  /** Role, disable or enable, new password; labels hidden (still named) where the table is tight. */
  const actions = (m: StaffMember, labelClass?: string) =>
    m.id === self ? null : (
      <>
        <Button type="button" variant="outline" size="sm" onClick={() => setActing({ kind: "role", member: m })} aria-label={t("changeRoleLabel", { name: m.username })}>
          <UserCog aria-hidden />
          <span className={labelClass}>{t("changeRole")}</span>
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className={cn(!m.disabled && "text-danger-strong")}
          onClick={() => setActing({ kind: "access", member: m })}
          aria-label={m.disabled ? t("enableLabel", { name: m.username }) : t("disableLabel", { name: m.username })}
        >
          {m.disabled ? <UserCheck aria-hidden /> : <UserX aria-hidden />}
          <span className={labelClass}>{m.disabled ? t("enable") : t("disable")}</span>
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={() => setActing({ kind: "reset", member: m })} aria-label={t("resetLabel", { name: m.username })}>
          <KeyRound aria-hidden />
          <span className={labelClass}>{t("reset")}</span>
        </Button>
      </>
    );

  return (
    <CatalogTab
      testId="staff-tab"
      title={t("title")}
      addLabel={t("add")}
      onAdd={() => setAdding(true)}
      loading={isLoading && !staff}
      error={Boolean(error) && !staff}
      onRetry={() => void mutate()}
      empty={!staff?.length}
      emptyText={t("empty")}
      cards={staff?.map((m) => {
        const own = actions(m);
        return (
          <CatalogCard
            key={m.id}
            testId="staff-card"
            dataName={m.username}
            title={name(m)}
            badge={<Badge variant="secondary">{roleName(m.role)}</Badge>}
            // Three buttons do not fit one line of a phone: two, then the third across.
            actions={own && <div className="grid grid-cols-2 gap-2 [&>*:last-child]:col-span-2">{own}</div>}
          >
            <CardFact label={t("colState")}>{state(m)}</CardFact>
            <CardFact label={t("colLastSignIn")}>{lastSignIn(m)}</CardFact>
            <CardFact label={t("colCreated")}>{formatDateTime(m.createdAt, locale)}</CardFact>
          </CatalogCard>
        );
      })}
      after={
        <>
          {adding && (
            <NewAccountDialog
              onClose={() => setAdding(false)}
              onCreated={(handed) => {
                setAdding(false);
                setHandedOver({ reset: false, handed });
                void refresh();
              }}
            />
          )}
          {acting?.kind === "role" && <RoleDialog member={acting.member} onClose={() => setActing(null)} onSaved={() => void refresh()} />}
          {acting?.kind === "access" && <AccessDialog member={acting.member} onClose={() => setActing(null)} onSaved={() => void refresh()} />}
          {acting?.kind === "reset" && (
            <AccessDialog
              member={acting.member}
              reset
              onClose={() => setActing(null)}
              onSaved={() => void refresh()}
              onHandedOver={(handed) => setHandedOver({ reset: true, handed })}
            />
          )}
          {handedOver && <HandedOverDialog handed={handedOver.handed} reset={handedOver.reset} onClose={() => setHandedOver(null)} />}
        </>
      }
    >
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("colUser")}</TableHead>
            <TableHead>{t("colRole")}</TableHead>
            <TableHead>{t("colState")}</TableHead>
            <TableHead>{t("colLastSignIn")}</TableHead>
            <TableHead>{t("colCreated")}</TableHead>
            <TableHead className="text-right">{t("colActions")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {staff?.map((m) => (
            <TableRow key={m.id} data-testid="staff-row" data-username={m.username} className={cn(m.disabled && "text-muted-foreground")}>
              <TableCell className="min-w-40">{name(m)}</TableCell>
              <TableCell>{roleName(m.role)}</TableCell>
              <TableCell>{state(m)}</TableCell>
              <TableCell className="whitespace-nowrap">{lastSignIn(m, "short")}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDateTime(m.createdAt, locale, "short")}</TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">{actions(m, "max-xl:sr-only")}</div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </CatalogTab>
  );
}
