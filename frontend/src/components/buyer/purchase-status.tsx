"use client";

import { useLocale, useTranslations } from "next-intl";
import { CheckCircle2, Clock, FileSearch, Mail, MessageCircle, TimerOff, XCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { BuyerPurchase } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { cn } from "@/lib/utils";

/** Where a buyer whose hold expired can reach the organiser (the site's branding). */
export interface OrganiserContact {
  email: string | null;
  whatsappUrl: string | null;
}

export type BuyerState = "awaiting" | "review" | "approved" | "rejected" | "expired" | "other";

/** What the buyer is told: waiting for their proof, the proof under review, or the decision. */
export function buyerState(purchase: Pick<BuyerPurchase, "status" | "proofAttached">): BuyerState {
  switch (purchase.status) {
    case "pending":
      return purchase.proofAttached ? "review" : "awaiting";
    case "approved":
    case "rejected":
    case "expired":
      return purchase.status;
    default:
      return "other";
  }
}

const LOOK = {
  awaiting: { icon: Clock, badge: "warning", box: "border-warning/50 bg-warning/10", label: "pending" },
  review: { icon: FileSearch, badge: "secondary", box: "border-primary/30 bg-primary/5", label: "review" },
  approved: { icon: CheckCircle2, badge: "success", box: "border-success/40 bg-success/5", label: "approved" },
  rejected: { icon: XCircle, badge: "destructive", box: "border-danger/40 bg-danger/5", label: "rejected" },
  expired: { icon: TimerOff, badge: "outline", box: "border-danger/40 bg-danger/5", label: "expired" },
  other: { icon: Clock, badge: "outline", box: "bg-card", label: null },
} as const;

/** The purchase's status as a badge and a panel that says what it means and what to do next. */
export function PurchaseStatus({ purchase, rejectionNote, contact }: { purchase: BuyerPurchase; rejectionNote: string | null; contact: OrganiserContact }) {
  const t = useTranslations("buyerPage");
  const locale = useLocale();
  const state = buyerState(purchase);
  const look = LOOK[state];
  const Icon = look.icon;
  const label = look.label ? t(`statuses.${look.label}`) : purchase.status;

  let title: string;
  let text: string | null;
  switch (state) {
    case "awaiting":
      title = t("states.awaitingTitle");
      text = purchase.holdExpiresAt ? t("states.awaitingText", { deadline: formatDateTime(purchase.holdExpiresAt, locale) }) : t("states.awaitingNoDeadline");
      break;
    case "review":
      title = t("states.reviewTitle");
      text = t("states.reviewText", { email: purchase.customerEmail });
      break;
    case "approved":
      title = t("states.approvedTitle");
      text = t("states.approvedText");
      break;
    case "rejected":
      title = t("states.rejectedTitle");
      text = t("states.rejectedText");
      break;
    case "expired":
      title = t("states.expiredTitle");
      text = t("states.expiredText", { reference: purchase.reference });
      break;
    default:
      title = t("states.otherTitle", { status: purchase.status });
      text = null;
  }

  return (
    <section aria-labelledby="status-title" className={cn("space-y-3 rounded-xl border p-4 shadow-sm sm:p-5", look.box)} data-testid="buyer-status" data-state={state}>
      <div className="flex items-start gap-3">
        <Icon aria-hidden className="mt-0.5 size-7 shrink-0" />
        <div className="min-w-0 space-y-1">
          <Badge variant={look.badge} data-testid="buyer-status-badge">{label}</Badge>
          <h2 id="status-title" className="text-lg font-bold leading-snug">{title}</h2>
          {text && <p className="text-sm">{text}</p>}
          {state === "rejected" && rejectionNote && (
            <p className="whitespace-pre-wrap break-words rounded-md bg-background/70 p-2 text-sm font-medium" data-testid="buyer-rejection-note">
              {t("states.rejectedNote", { note: rejectionNote })}
            </p>
          )}
        </div>
      </div>
      {state === "expired" && (contact.email || contact.whatsappUrl) && (
        <div className="flex flex-col gap-2 sm:flex-row">
          {contact.email && (
            <a href={`mailto:${contact.email}?subject=${encodeURIComponent(purchase.reference)}`} className="inline-flex items-center gap-2 text-sm font-medium underline underline-offset-4">
              <Mail aria-hidden className="size-4" />
              {t("states.contactEmail")}
            </a>
          )}
          {contact.whatsappUrl && (
            <a href={contact.whatsappUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-2 text-sm font-medium underline underline-offset-4">
              <MessageCircle aria-hidden className="size-4" />
              {t("states.contactWhatsapp")}
            </a>
          )}
        </div>
      )}
    </section>
  );
}
