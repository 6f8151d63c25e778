"use client";

import { useState } from "react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { ArrowLeft, Check, Loader2, RotateCcw, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Separator } from "@/components/ui/separator";
import type { AdminPurchase } from "@/lib/api/types";
import { usePurchase } from "@/lib/swr/use-purchases";
import { formatConverted, formatDateTime, formatUsd, padTicket } from "@/lib/format";
import { PaymentProof } from "./payment-proof";
import { ProofCheckPanel } from "./proof-check-panel";
import { PurchaseStatusBadge } from "./status-badge";

const ProofCompareDialog = dynamic(() => import("./proof-compare-dialog").then((m) => m.ProofCompareDialog), { ssr: false });

function Field({ label, children, wide }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 break-words text-sm">{children}</dd>
    </div>
  );
}

/**
 * Every field of a purchase, its proof, the proof's check and notes, and approve/reject while
 * it is pending (SPEC §2 "Dialogs"). Read fresh on open: the proof link lasts minutes. A check
 * naming another purchase (the same file, the same reference) opens that one here, with a way
 * back.
 */
export function PurchaseDetailDialog({
  purchaseId,
  ticketWidth,
  onClose,
  onDecide,
  onReopen,
}: {
  purchaseId: number;
  ticketWidth: (raffleId: number) => number;
  onClose: () => void;
  onDecide: (purchase: AdminPurchase, status: "approved" | "rejected") => void;
  /** 'Reabrir compra' on an expired purchase. */
  onReopen: (purchase: AdminPurchase) => void;
}) {
  const t = useTranslations("admin.detail");
  const tp = useTranslations("admin.purchases");
  const tc = useTranslations("admin.common");
  const tCountry = useTranslations("purchase.countries");
  const locale = useLocale();
  // The purchase shown: the one asked for, or another one a check pointed at (with the way back).
  const [asked, setAsked] = useState(purchaseId);
  const [shownId, setShownId] = useState(purchaseId);
  const [trail, setTrail] = useState<{ id: number; reference: string }[]>([]);
  // 'Comparar': the other purchase whose proof shows beside this one's.
  const [comparing, setComparing] = useState<{ id: number; opener: HTMLElement | null } | null>(null);
  if (asked !== purchaseId) {
    setAsked(purchaseId);
    setShownId(purchaseId);
    setTrail([]);
    setComparing(null);
  }
  const { data, error } = usePurchase(shownId);
  // Never the previous purchase's copy while the next one loads.
  const p = data?.id === shownId ? data : undefined;
  const previous = trail.at(-1);

  function openOther(otherId: number) {
    if (!p || otherId === p.id) return;
    setTrail((before) => [...before, { id: p.id, reference: p.reference }]);
    setShownId(otherId);
    setComparing(null);
  }

  function goBack() {
    if (!previous) return;
    setTrail((before) => before.slice(0, -1));
    setShownId(previous.id);
    setComparing(null);
  }

  const country = (code: string) => (tCountry.has(code as never) ? tCountry(code as never) : code);

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl lg:max-w-4xl" closeLabel={tc("close")} data-testid="purchase-detail" data-purchase-id={shownId}>
        <DialogHeader>
          {previous && (
            <Button type="button" variant="ghost" size="sm" className="-ml-2 w-fit" onClick={goBack} data-testid="detail-back">
              <ArrowLeft aria-hidden />
              {t("check.back", { reference: previous.reference })}
            </Button>
          )}
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription className="font-mono">{p?.reference ?? "…"}</DialogDescription>
        </DialogHeader>
        {!p ? (
          <p role="status" className="flex items-center gap-2 py-8 text-muted-foreground">
            {error ? (
              tc("error")
            ) : (
              <>
                <Loader2 aria-hidden className="size-4 animate-spin" />
                {t("loading")}
              </>
            )}
          </p>
        ) : (
          <div className="grid gap-5">
            {p.status === "expired" && (
              <p role="note" className="rounded-md border border-warning bg-warning/10 p-3 text-sm" data-testid="detail-expired-note">
                {t("expiredNote")}
              </p>
            )}
            <section aria-labelledby="detail-customer">
              <h3 id="detail-customer" className="mb-2 font-semibold">
                {t("customerSection")}
              </h3>
              <dl className="grid gap-3 sm:grid-cols-2">
                <Field label={t("name")}>{p.customerName}</Field>
                <Field label={t("customerId")}>{p.customerId}</Field>
                <Field label={t("email")}>
                  <a className="underline-offset-4 hover:underline" href={`mailto:${p.customerEmail}`}>
                    {p.customerEmail}
                  </a>
                </Field>
                <Field label={t("phone")}>
                  <a className="underline-offset-4 hover:underline" href={`tel:${p.customerPhone.replace(/[^\d+]/g, "")}`}>
                    {p.customerPhone}
                  </a>
                </Field>
                <Field label={t("country")}>{country(p.customerCountry)}</Field>
              </dl>
            </section>
            <Separator />
            <section aria-labelledby="detail-purchase">
              <h3 id="detail-purchase" className="mb-2 font-semibold">
                {t("purchaseSection")}
              </h3>
              <dl className="grid gap-3 sm:grid-cols-2">
                <Field label={t("reference")}>
                  <span className="font-mono font-semibold">{p.reference}</span>
                </Field>
                <Field label={t("raffle")}>{p.raffleTitle}</Field>
                <Field label={t("total")}>
                  <span className="font-semibold">{formatUsd(p.totalAmount, locale)}</span>
                  {p.convertedTotal && (
                    <span className="ml-2 text-muted-foreground">
                      ({t("converted")} {formatConverted(p.totalAmount, p.convertedTotal.rate, p.convertedTotal.currency, locale)})
                    </span>
                  )}
                </Field>
                <Field label={t("discount")}>{formatUsd(p.discountApplied, locale)}</Field>
                <Field label={t("method")}>{p.paymentMethod}</Field>
                <Field label={t("paymentReference")}>
                  {p.paymentReference ? (
                    <span className="font-mono font-semibold" data-testid="detail-payment-reference">
                      {p.paymentReference}
                    </span>
                  ) : (
                    <span className="text-muted-foreground" data-testid="detail-payment-reference">
                      —
                    </span>
                  )}
                </Field>
                <Field label={t("status")}>
                  <PurchaseStatusBadge status={p.status} />
                </Field>
                <Field label={t("date")}>{formatDateTime(p.createdAt, locale)}</Field>
                {p.decidedAt && <Field label={t("decidedAt")}>{formatDateTime(p.decidedAt, locale)}</Field>}
                {p.status === "pending" && p.holdExpiresAt && (
                  <Field label={t("holdUntil")}>
                    <span data-testid="detail-hold-until">{formatDateTime(p.holdExpiresAt, locale)}</span>
                  </Field>
                )}
                <Field label={t("tickets", { count: p.ticketNumbers.length })} wide>
                  <div className="flex max-h-40 flex-wrap gap-1 overflow-y-auto" data-testid="detail-tickets">
                    {p.ticketNumbers.map((n) => (
                      <span key={n} className="rounded bg-primary px-1.5 py-0.5 font-mono text-xs text-primary-foreground">
                        {padTicket(n, ticketWidth(p.raffleId))}
                      </span>
                    ))}
                  </div>
                </Field>
              </dl>
            </section>
            <Separator />
            <div className={p.paymentProof ? "grid gap-5 lg:grid-cols-2" : "grid gap-5"}>
              <section aria-labelledby="detail-proof" className="min-w-0">
                <h3 id="detail-proof" className="mb-2 font-semibold">
                  {t("proof")}
                </h3>
                {p.proofProblem && (
                  <p role="note" className="mb-2 rounded-md border border-warning bg-warning/10 p-3 text-sm" data-testid="proof-problem">
                    {t.has(`proofProblems.${p.proofProblem}` as never) ? t(`proofProblems.${p.proofProblem}` as never) : p.proofProblem}
                  </p>
                )}
                {p.paymentProof ? (
                  <PaymentProof key={p.paymentProof} link={p.paymentProof} customerName={p.customerName} />
                ) : (
                  <p className="text-sm text-muted-foreground">{t("noProof")}</p>
                )}
              </section>
              {p.paymentProof && <ProofCheckPanel key={p.id} purchase={p} onOpenPurchase={openOther} onCompare={(otherId) => otherId !== p.id && setComparing({ id: otherId, opener: document.activeElement instanceof HTMLElement ? document.activeElement : null })} />}
            </div>
            <section aria-labelledby="detail-notes">
              <h3 id="detail-notes" className="mb-1 font-semibold">
                {t("notes")}
              </h3>
              <p className="whitespace-pre-wrap text-sm" data-testid="detail-notes">
                {p.adminNotes || <span className="text-muted-foreground">{t("noNotes")}</span>}
              </p>
            </section>
          </div>
        )}
        {p?.status === "expired" && (
          <DialogFooter>
            <Button type="button" onClick={() => onReopen(p)} data-testid="reopen-purchase">
              <RotateCcw aria-hidden />
              {tp("reopen")}
            </Button>
          </DialogFooter>
        )}
        {p?.status === "pending" && (
          <DialogFooter>
            <Button type="button" variant="destructive" onClick={() => onDecide(p, "rejected")}>
              <X aria-hidden />
              {tp("reject")}
            </Button>
            <Button type="button" variant="success" onClick={() => onDecide(p, "approved")}>
              <Check aria-hidden />
              {tp("approve")}
            </Button>
          </DialogFooter>
        )}
        {p && comparing !== null && <ProofCompareDialog purchase={p} otherId={comparing.id} returnFocus={comparing.opener} onClose={() => setComparing(null)} />}
      </DialogContent>
    </Dialog>
  );
}
