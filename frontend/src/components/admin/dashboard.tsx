"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { SWRConfig } from "swr";
import { Banknote, CalendarDays, CreditCard, Mail, Palette, ScrollText, ShieldCheck, Ticket, UsersRound } from "lucide-react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { NOT_ALLOWED } from "@/lib/admin/live";
import { allowedTabs, can, predatesRoles, type TabId } from "@/lib/admin/permissions";
import { refreshIfOutdated, refreshSessionUser } from "@/lib/api/admin";
import { ApiError } from "@/lib/api/fetcher";
import type { AdminPurchase } from "@/lib/api/types";
import type { Session } from "@/lib/auth/session";
import { AdminHeader } from "./admin-header";
import { SummaryCards } from "./summary-cards";
import { PurchasesPanel, useTicketWidth } from "./purchases-panel";
import type { Decision } from "./purchases/types";
import { useLiveNotices } from "./use-live-notices";
import { useRequiredSession, type RequiredSession } from "./use-admin-session";
import { usePurchaseRefresh } from "@/lib/swr/cache";
import { useAdminRaffles } from "@/lib/swr/use-raffles";

// Tabs other than the first load when opened.
const SalesChart = dynamic(() => import("./sales-chart").then((m) => m.SalesChart), { ssr: false });
const RafflesTab = dynamic(() => import("./raffles-tab").then((m) => m.RafflesTab), { ssr: false });
const PaymentMethodsTab = dynamic(() => import("./payment-methods-tab").then((m) => m.PaymentMethodsTab), { ssr: false });
const RatesTab = dynamic(() => import("./rates-tab").then((m) => m.RatesTab), { ssr: false });
const BrandingTab = dynamic(() => import("./branding-tab").then((m) => m.BrandingTab), { ssr: false });
const EmailTab = dynamic(() => import("./email-tab").then((m) => m.EmailTab), { ssr: false });
const AuditTab = dynamic(() => import("./audit/audit-tab").then((m) => m.AuditTab), { ssr: false });
const StaffTab = dynamic(() => import("./staff/staff-tab").then((m) => m.StaffTab), { ssr: false });
const ForcedPasswordChange = dynamic(() => import("./password/forced-password-change").then((m) => m.ForcedPasswordChange), { ssr: false });
const PurchaseDetailDialog = dynamic(() => import("./purchase-detail-dialog").then((m) => m.PurchaseDetailDialog), { ssr: false });
const DecisionDialog = dynamic(() => import("./decision-dialog").then((m) => m.DecisionDialog), { ssr: false });
const ReopenDialog = dynamic(() => import("./reopen-dialog").then((m) => m.ReopenDialog), { ssr: false });

/**
 * /admin/dashboard (SPEC §2 "Administrator dashboard"): the tabs the account's role allows, or,
 * while it holds a password an owner handed over, only the screen to choose its own.
 */
export function AdminDashboard() {
  const { session, logout, logoutEverywhere, changeOwnPassword } = useRequiredSession();
  const t = useTranslations("admin.login");
  // A 401 on any admin call means the token no longer works: sign out (SPEC §4, docs/API.md). A
  // refusal by role means the stored user is out of date: read it again.
  const onError = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) logout("expired");
      refreshIfOutdated(error);
    },
    [logout],
  );
  const config = useMemo(() => ({ onError }), [onError]);
  const stale = session !== null && predatesRoles(session.user);
  useEffect(() => {
    if (stale) refreshSessionUser().catch(() => undefined);
  }, [stale]);
  if (!session || stale) {
    return (
      <p role="status" className="flex min-h-dvh items-center justify-center text-muted-foreground">
        {t("checking")}
      </p>
    );
  }
  if (session.user.mustChangePassword) {
    return <ForcedPasswordChange session={session} onSubmit={changeOwnPassword} onLogout={() => logout("user")} />;
  }
  return (
    <SWRConfig value={config}>
      <DashboardBody session={session} logout={logout} logoutEverywhere={logoutEverywhere} changeOwnPassword={changeOwnPassword} />
    </SWRConfig>
  );
}

const TAB_ICONS: Record<TabId, React.ReactNode> = {
  purchases: <ShieldCheck aria-hidden />,
  daily: <CalendarDays aria-hidden />,
  raffles: <Ticket aria-hidden />,
  methods: <CreditCard aria-hidden />,
  rates: <Banknote aria-hidden />,
  branding: <Palette aria-hidden />,
  email: <Mail aria-hidden />,
  staff: <UsersRound aria-hidden />,
  audit: <ScrollText aria-hidden />,
};

function DashboardBody({
  session,
  logout,
  logoutEverywhere,
  changeOwnPassword,
}: { session: Session } & Pick<RequiredSession, "logout" | "logoutEverywhere" | "changeOwnPassword">) {
  const t = useTranslations("admin.tabs");
  const tabs = allowedTabs(session.user);
  // The first allowed tab until one is chosen; a tab the role lost meanwhile gives way to it too.
  const [chosen, setTab] = useState<TabId | null>(null);
  const tab = chosen !== null && tabs.includes(chosen) ? chosen : tabs[0];
  const purchases = can(session.user, "purchases");
  const reports = can(session.user, "reports");
  // The purchase a live toast's 'Ver' (or an audit entry) opened, and the decision taken from it.
  const [noticeId, setNoticeId] = useState<number | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [reopening, setReopening] = useState<AdminPurchase | null>(null);
  const { data: raffles } = useAdminRaffles();
  const widthOf = useTicketWidth(raffles);

  const refreshPurchases = usePurchaseRefresh();
  const live = useLiveNotices({
    token: purchases ? session.token : null,
    onPurchase: refreshPurchases,
    // Notices sent while the connection was down are lost: read the lists again.
    onReconnected: refreshPurchases,
    onView: (notice) => setNoticeId(notice.purchaseId),
    // An owner took purchases from the role: the session goes on, with the role's tabs.
    onRefused: (reason) => (reason === NOT_ALLOWED ? refreshSessionUser().catch(() => undefined) : logout("expired")),
  });

  const content: Record<TabId, React.ReactNode> = {
    purchases: (
      <>
        <PurchasesPanel mode="all" reports={reports} />
        {reports && <SalesChart />}
      </>
    ),
    daily: <PurchasesPanel mode="today" reports={reports} />,
    raffles: <RafflesTab draws={can(session.user, "draws")} />,
    methods: <PaymentMethodsTab />,
    rates: <RatesTab canDelete={can(session.user, "settings")} />,
    branding: <BrandingTab />,
    email: <EmailTab />,
    staff: <StaffTab self={session.user.id} />,
    audit: <AuditTab onOpenPurchase={setNoticeId} />,
  };

  return (
    <div className="min-h-dvh bg-muted/40">
      <AdminHeader session={session} live={live} onLogout={() => logout("user")} onLogoutEverywhere={logoutEverywhere} onChangePassword={changeOwnPassword} />
      <main className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 py-6 sm:px-6">
        {reports && <SummaryCards />}
        <section aria-label={t("label")} className="min-w-0">
          <Tabs value={tab} onValueChange={(v) => setTab(v as TabId)}>
            <div className="-mx-4 overflow-x-auto px-4 pb-1 sm:mx-0 sm:px-0">
              <TabsList aria-label={t("label")} data-testid="admin-tabs">
                {tabs.map((id) => (
                  <TabsTrigger key={id} value={id}>
                    {TAB_ICONS[id]}
                    {t(id)}
                  </TabsTrigger>
                ))}
              </TabsList>
            </div>
            {tabs.map((id) => (
              <TabsContent key={id} value={id} className={id === "purchases" ? "grid grid-cols-1 gap-6" : undefined}>
                {content[id]}
              </TabsContent>
            ))}
          </Tabs>
        </section>
      </main>
      {noticeId !== null && (
        <PurchaseDetailDialog
          purchaseId={noticeId}
          ticketWidth={widthOf}
          onClose={() => setNoticeId(null)}
          onDecide={(purchase, next) => {
            setNoticeId(null);
            setDecision({ purchase, status: next });
          }}
          onReopen={(purchase) => {
            setNoticeId(null);
            setReopening(purchase);
          }}
        />
      )}
      {decision && <DecisionDialog decision={decision} onClose={() => setDecision(null)} onDone={() => setDecision(null)} />}
      {reopening && <ReopenDialog purchase={reopening} ticketWidth={widthOf(reopening.raffleId)} onClose={() => setReopening(null)} onDone={() => setReopening(null)} />}
    </div>
  );
}
