"use client";

import type { ReactNode } from "react";
import { useLocale, useTranslations } from "next-intl";
import { AlertTriangle, CheckCircle2, ChevronRight, Columns2, Loader2, XCircle } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { AdminPurchase, ProofSignal } from "@/lib/api/types";
import { highlightSegments, highlightsOf, lightOf, signalLight, type Light } from "@/lib/admin/proof-check";
import { formatDateTime, formatMoney, formatNumber, formatReadAmount, formatUsd } from "@/lib/format";
import { useProofCheck } from "@/lib/swr/use-proof-check";
import { cn } from "@/lib/utils";
import { ProofLightBadge } from "./proof-light-badge";

/** The signals that name another purchase with the same proof or reference ('Comparar' sets them side by side). */
const REUSE_KINDS = new Set<ProofSignal["kind"]>(["exactReuse", "nearReuse", "referenceReused"]);

const SIGNAL_ICON: Record<Light, { icon: typeof CheckCircle2; className: string }> = {
  green: { icon: CheckCircle2, className: "text-success-strong" },
  amber: { icon: AlertTriangle, className: "text-warning-strong" },
  red: { icon: XCircle, className: "text-danger-strong" },
};

/** What the purchase costs in the method's currency (its locked conversion), else in USD. */
export function expectedAmount(purchase: Pick<AdminPurchase, "convertedTotal" | "totalAmount">, locale: string): string {
  const converted = purchase.convertedTotal;
  return converted ? formatMoney(converted.amount, converted.currency, locale) : formatUsd(purchase.totalAmount, locale);
}

/**
 * 'Verificación del comprobante' (issue 16): what the background check of the proof found — a
 * light with its meaning, one line per signal with its evidence, and the text read with the
 * amount and the reference it matched marked. Read again every 3 s while the check runs.
 */
export function ProofCheckPanel({
  purchase,
  onOpenPurchase,
  onCompare,
}: {
  purchase: AdminPurchase;
  onOpenPurchase: (purchaseId: number) => void;
  /** 'Comparar' on a signal naming another purchase: both proofs side by side. */
  onCompare?: (purchaseId: number) => void;
}) {
  const t = useTranslations("admin.detail.check");
  const locale = useLocale();
  const { data: check, error } = useProofCheck(purchase.id);
  const light = lightOf(check);

  let status: ReactNode = null;
  if (!check) {
    status = error ? (
      <p className="text-sm text-danger-strong">{t("loadError")}</p>
    ) : (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2 aria-hidden className="size-4 animate-spin" />
        {t("loading")}
      </p>
    );
  } else if (check.status === "pending") {
    status = (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="proof-check-pending">
        <Loader2 aria-hidden className="size-4 animate-spin" />
        {t("pending")}
      </p>
    );
  } else if (check.status === "failed") {
    status = (
      <div role="note" className="rounded-md border border-warning bg-warning/10 p-3 text-sm" data-testid="proof-check-failed">
        <p className="font-medium">{t("failed")}</p>
        {check.reason && <p className="mt-1 break-words text-muted-foreground">{t("reason", { reason: check.reason })}</p>}
      </div>
    );
  } else if (check.status === "done" && light) {
    status = (
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="proof-check-light" data-light={light}>
        <ProofLightBadge light={light} className="text-sm [&>svg]:size-4" />
        <span className="min-w-0 text-sm">{t(`meanings.${light}`)}</span>
      </div>
    );
  }

  const signals = check?.status === "done" ? check.signals : [];
  const text = check?.status === "done" ? check.text?.trim() : null;

  return (
    <section aria-labelledby="detail-proof-check" className="grid min-w-0 content-start gap-3" data-testid="proof-check" data-status={check?.status ?? "loading"}>
      <h3 id="detail-proof-check" className="font-semibold">
        {t("title")}
      </h3>
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 rounded-md border bg-muted/40 px-3 py-2 text-sm">
        <span className="text-muted-foreground">{t("expected")}</span>
        <span className="font-semibold tabular-nums" data-testid="proof-check-expected">
          {expectedAmount(purchase, locale)}
        </span>
      </p>
      {status}
      {signals.length > 0 && (
        <ul className="grid gap-1.5 text-sm" data-testid="proof-check-signals">
          {signals.map((signal, index) => {
            const { icon: Icon, className } = SIGNAL_ICON[signalLight(signal)];
            return (
              <li key={`${signal.kind}-${index}`} className="flex items-start gap-2" data-kind={signal.kind}>
                <Icon aria-hidden className={cn("mt-0.5 size-4 shrink-0", className)} />
                <span className="min-w-0 break-words">
                  <span data-testid="signal-text">
                    <SignalText signal={signal} onOpenPurchase={onOpenPurchase} />
                  </span>
                  {onCompare && REUSE_KINDS.has(signal.kind) && "other" in signal && (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      className="ml-2 h-7 gap-1 px-2 align-middle text-xs"
                      onClick={() => onCompare(signal.other)}
                      aria-label={t("compareLabel", { id: signal.other })}
                      data-testid="compare-proofs"
                      data-purchase-id={signal.other}
                    >
                      <Columns2 aria-hidden className="size-3.5" />
                      {t("compare")}
                    </Button>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {check?.status === "done" && check.checkedAt && (
        <p className="text-xs text-muted-foreground">{t("checkedAt", { date: formatDateTime(check.checkedAt, locale) })}</p>
      )}
      {text && <ReadText text={text} signals={signals} typedReference={purchase.paymentReference} />}
    </section>
  );
}

/**
 * One signal in the reviewer's language, with its evidence; another purchase it names opens on
 * click when `onOpenPurchase` is given (else its number is plain text).
 */
export function SignalText({ signal, onOpenPurchase }: { signal: ProofSignal; onOpenPurchase?: (purchaseId: number) => void }) {
  const t = useTranslations("admin.detail.check");
  const locale = useLocale();
  const code = (chunks: ReactNode) => <code className="rounded bg-muted px-1 font-mono text-[0.8125rem]">{chunks}</code>;
  switch (signal.kind) {
    case "exactReuse":
    case "nearReuse":
    case "referenceReused":
      return t.rich(`signals.${signal.kind}`, {
        other: signal.other,
        purchase: (chunks) =>
          onOpenPurchase ? (
            <OtherPurchase id={signal.other} label={t("openPurchase", { id: signal.other })} onOpen={onOpenPurchase}>
              {chunks}
            </OtherPurchase>
          ) : (
            chunks
          ),
      });
    case "editedWith":
      return t("signals.editedWith", { software: signal.software });
    case "datedAfterPurchase":
    case "datedBeforePurchase":
      return t(`signals.${signal.kind}`, { date: formatDateTime(signal.takenAt, locale) });
    case "amountMatches":
      return t("signals.amountMatches", { amount: formatReadAmount(signal.read.value, signal.read.currency, locale) });
    case "amountDiffers":
      return t("signals.amountDiffers", {
        read: formatReadAmount(signal.read.value, signal.read.currency, locale),
        expected: formatReadAmount(signal.expected.value, signal.expected.currency, locale),
      });
    case "referenceMatches":
    case "referenceRead":
      return t.rich(`signals.${signal.kind}`, { reference: signal.reference, code });
    case "referenceDiffers":
      return t.rich("signals.referenceDiffers", { read: signal.read, given: signal.given, code });
    case "amountUnread":
    case "referenceUnread":
    case "noTextReader":
    case "unreadable":
    case "readerFailed":
      return t(`signals.${signal.kind}`);
    case "pageTooLarge":
      return t("signals.pageTooLarge", {
        width: formatNumber(signal.widthMm / 1000, locale, 2),
        height: formatNumber(signal.heightMm / 1000, locale, 2),
      });
    case "readTooSlow":
      return t("signals.readTooSlow", { seconds: signal.seconds });
    default:
      return t("signals.unknown", { kind: (signal as { kind: string }).kind });
  }
}

/** Another purchase a signal names: opens it in the same dialog. */
function OtherPurchase({ id, label, onOpen, children }: { id: number; label: string; onOpen: (purchaseId: number) => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={() => onOpen(id)}
      className="inline-flex items-center font-medium text-primary underline underline-offset-2 outline-none hover:no-underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
      aria-label={label}
      data-testid="open-other-purchase"
      data-purchase-id={id}
    >
      {children}
      <ChevronRight aria-hidden className="size-3.5" />
    </button>
  );
}

/** 'Texto leído': what the check read, folded, with the amount and reference it matched marked. */
function ReadText({ text, signals, typedReference }: { text: string; signals: ProofSignal[]; typedReference?: string | null }) {
  const t = useTranslations("admin.detail.check");
  const segments = highlightSegments(text, highlightsOf(signals, typedReference));
  return (
    <details className="group rounded-md border" data-testid="proof-check-text">
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded-md px-3 py-2 text-sm font-medium outline-none hover:bg-muted/40 focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
        <ChevronRight aria-hidden className="size-4 transition-transform group-open:rotate-90" />
        {t("textRead")}
      </summary>
      <pre className="max-h-72 overflow-y-auto whitespace-pre-wrap break-words border-t p-3 font-mono text-xs leading-relaxed">
        {segments.map((segment, index) =>
          segment.mark ? (
            <mark
              key={index}
              className={cn("rounded-sm px-0.5 text-foreground", segment.mark === "amount" ? "bg-warning/50" : "bg-primary/20")}
              data-mark={segment.mark}
              title={segment.mark === "amount" ? t("amountMark") : t("referenceMark")}
            >
              {segment.text}
            </mark>
          ) : (
            segment.text
          ),
        )}
      </pre>
    </details>
  );
}
