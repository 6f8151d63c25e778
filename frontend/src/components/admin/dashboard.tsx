"use client";

import { useCallback, useMemo, useState } from "react";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { SWRConfig } from "swr";
import { Banknote, CalendarDays, CreditCard, Mail, Palette, ScrollText, ShieldCheck, Ticket } from "lucide-react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
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
const PurchaseDetailDialog = dynamic(() => import("./purchase-detail-dialog").then((m) => m.PurchaseDetailDialog), { ssr: false });
const DecisionDialog = dynamic(() => import("./decision-dialog").then((m) => m.DecisionDialog), { ssr: false });
const ReopenDialog = dynamic(() => import("./reopen-dialog").then((m) => m.ReopenDialog), { ssr: false });

/** /admin/dashboard (SPEC §2 "Administrator dashboard"). */
export function AdminDashboard() {
  const { session, logout, logoutEverywhere } = useRequiredSession();
  const t = useTranslations("admin.login");
  // A 401 on any admin call means the token no longer works: sign out (SPEC §4, docs/API.md).
  const onError = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) logout("expired");
    },
    [logout],
  );
  const config = useMemo(() => ({ onError }), [onError]);
  if (!session) {
    return (
      <p role="status" className="flex min-h-dvh items-center justify-center text-muted-foreground">
        {t("checking")}
      </p>
    );
  }
  return (
    <SWRConfig value={config}>
      <DashboardBody session={session} logout={logout} logoutEverywhere={logoutEverywhere} />
    </SWRConfig>
  );
}

export type TabId = "purchases" | "daily" | "raffles" | "methods" | "rates" | "branding" | "email" | "audit";

function DashboardBody({ session, logout, logoutEverywhere }: { session: Session } & Pick<RequiredSession, "logout" | "logoutEverywhere">) {
  const t = useTranslations("admin.tabs");
  const [tab, setTab] = useState<TabId>("purchases");
  const privileged = session.user.privileged === true;
  // The purchase a live toast's 'Ver' (or an audit entry) opened, and the decision taken from it.
  const [noticeId, setNoticeId] = useState<number | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [reopening, setReopening] = useState<AdminPurchase | null>(null);
  const { data: raffles } = useAdminRaffles();
  const widthOf = useTicketWidth(raffles);

  const refreshPurchases = usePurchaseRefresh();
  const live = useLiveNotices({
    onPurchase: refreshPurchases,
    // Notices sent while the connection was down are lost: read the lists again.
    onReconnected: refreshPurchases,
    onView: (notice) => setNoticeId(notice.purchaseId),
    onRefused: () => logout("expired"),
  });

  const tabs: { id: TabId; label: string; icon: React.ReactNode }[] = [
    { id: "purchases", label: t("purchases"), icon: <ShieldCheck aria-hidden /> },
    { id: "daily", label: t("daily"), icon: <CalendarDays aria-hidden /> },
    { id: "raffles", label: t("raffles"), icon: <Ticket aria-hidden /> },
    { id: "methods", label: t("methods"), icon: <CreditCard aria-hidden /> },
    { id: "rates", label: t("rates"), icon: <Banknote aria-hidden /> },
  ];
  if (privileged) {
    tabs.push({ id: "branding", label: t("branding"), icon: <Palette aria-hidden /> });
    tabs.push({ id: "email", label: t("email"), icon: <Mail aria-hidden /> });
    tabs.push({ id: "audit", label: t("audit"), icon: <ScrollText aria-hidden /> });
  }

  return (
    <div className="min-h-dvh bg-muted/40">
      <AdminHeader session={session} live={live} onLogout={() => logout("user")} onLogoutEverywhere={logoutEverywhere} />
      <main className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 py-6 sm:px-6">
        <SummaryCards />
        <section aria-label={t("label")} className="min-w-0">
          <Tabs value={tab} onValueChange={(v) => setTab(v as TabId)}>
            <div className="-mx-4 overflow-x-auto px-4 pb-1 sm:mx-0 sm:px-0">
              <TabsList aria-label={t("label")} data-testid="admin-tabs">
                {tabs.map((item) => (
                  <TabsTrigger key={item.id} value={item.id}>
                    {item.icon}
                    {item.label}
                  </TabsTrigger>
                ))}
              </TabsList>
            </div>
            <TabsContent value="purchases" className="grid grid-cols-1 gap-6">
              <PurchasesPanel mode="all" />
              <SalesChart />
            </TabsContent>
            <TabsContent value="daily">
              <PurchasesPanel mode="today" />
            </TabsContent>
            <TabsContent value="raffles">
              <RafflesTab />
            </TabsContent>
            <TabsContent value="methods">
              <PaymentMethodsTab />
            </TabsContent>
            <TabsContent value="rates">
              <RatesTab privileged={privileged} />
            </TabsContent>
            {privileged && (
              <>
                <TabsContent value="branding">
                  <BrandingTab />
                </TabsContent>
                <TabsContent value="email">
                  <EmailTab />
                </TabsContent>
                <TabsContent value="audit">
                  <AuditTab onOpenPurchase={setNoticeId} />
                </TabsContent>
              </>
            )}
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
