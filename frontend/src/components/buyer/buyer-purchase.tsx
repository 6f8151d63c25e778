"use client";

import { useCallback, useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { CheckCircle2, Lock, RefreshCw, TimerOff } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ProofUpload } from "@/components/raffle/proof-upload";
import { ApiError } from "@/lib/api/fetcher";
import type { BuyerPurchaseView } from "@/lib/api/types";
import { AFTER_DEADLINE_MS } from "@/lib/countdown";
import { useBuyerPurchase } from "@/lib/swr/use-buyer-purchase";
import { useUrlFragment } from "@/lib/use-url-fragment";
import { HoldCountdown } from "./hold-countdown";
import { PurchaseNotFound } from "./purchase-not-found";
import { PurchaseStatus, type OrganiserContact } from "./purchase-status";
import { PurchaseSummary } from "./purchase-summary";
import { PurchaseTimeline } from "./purchase-timeline";

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * The buyer's own page (/compra/{id}#{key}): the key is the URL's fragment, read here in the
 * browser and sent only as the X-Purchase-Token header, so the site's server never sees it.
 */
export function BuyerPurchase({ purchaseId, contact }: { purchaseId: number | null; contact: OrganiserContact }) {
  const token = useUrlFragment();
  const { data, error, mutate } = useBuyerPurchase(purchaseId, token || null);
  const refresh = useCallback(() => void mutate(), [mutate]);

  // Rendering on the server, or hydrating: the fragment is not known yet.
  if (token === null) return <Loading />;
  if (purchaseId === null || !token || isNotFound(error)) return <PurchaseNotFound />;
  if (!data) return error ? <LoadFailed onRetry={refresh} /> : <Loading />;
  return <PurchaseDetails view={data} purchaseToken={token} contact={contact} onChanged={refresh} />;
}

function PurchaseDetails({ view, purchaseToken, contact, onChanged }: { view: BuyerPurchaseView; purchaseToken: string; contact: OrganiserContact; onChanged: () => void }) {
  const t = useTranslations("buyerPage");
  const { purchase, history, serverTime } = view;
  const [holdOver, setHoldOver] = useState(false);
  const [lateProof, setLateProof] = useState<string | null>(null);
  const [proofSent, setProofSent] = useState(false);

  // The hold just ended: the sweep expires it within seconds; read the purchase again then.
  useEffect(() => {
    if (!holdOver) return;
    const timer = window.setTimeout(onChanged, AFTER_DEADLINE_MS);
    return () => window.clearTimeout(timer);
  }, [holdOver, onChanged]);

  const waitingForProof = purchase.status === "pending" && !purchase.proofAttached;
  const rejectionNote = purchase.adminNotes ?? history.findLast((e) => e.kind === "rejected")?.note ?? null;
  const problem = purchase.proofProblem ? (t.has(`proof.problems.${purchase.proofProblem}` as never) ? t(`proof.problems.${purchase.proofProblem}` as never) : purchase.proofProblem) : null;
  const uploadShown = purchase.canUploadProof && !holdOver && !lateProof;

  function sent() {
    setProofSent(true);
    onChanged();
  }

  function failed(error: unknown) {
    // A proof after the deadline (409 hold_expired): keep the server's words once the page shows the expiry.
    if (error instanceof ApiError && error.status === 409) {
      setLateProof(error.serverMessage ?? t("states.expiredTitle"));
      onChanged();
    }
  }

  return (
    <div className="space-y-6" data-testid="buyer-purchase">
      <header className="space-y-2">
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t("title")}</h1>
        <p className="font-mono text-sm font-semibold" data-testid="buyer-reference">{t("reference", { reference: purchase.reference })}</p>
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
          {t("privateNote")}
        </p>
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] lg:items-start">
        <div className="order-2 lg:order-1">
          <PurchaseSummary view={view} purchaseToken={purchaseToken} />
        </div>
        <div className="order-1 space-y-4 lg:order-2">
          <PurchaseStatus purchase={purchase} rejectionNote={rejectionNote} contact={contact} />
          {lateProof && (
            <Alert variant="destructive" data-testid="late-proof">
              <TimerOff aria-hidden />
              <AlertTitle>{t("lateProof")}</AlertTitle>
              <AlertDescription>{lateProof}</AlertDescription>
            </Alert>
          )}
          {proofSent && !lateProof && (
            <Alert variant="success" data-testid="buyer-proof-sent">
              <CheckCircle2 aria-hidden />
              <AlertDescription>{t("proof.sent")}</AlertDescription>
            </Alert>
          )}
          {waitingForProof && purchase.holdExpiresAt && (
            <HoldCountdown key={purchase.holdExpiresAt} deadline={purchase.holdExpiresAt} createdAt={purchase.createdAt} serverTime={serverTime} onOverChange={setHoldOver} />
          )}
          {uploadShown && (
            <section aria-labelledby="proof-title" className="space-y-2 rounded-xl border bg-card p-4 text-sm shadow-sm sm:p-5" data-testid="buyer-proof-upload">
              <h2 id="proof-title" className="text-base font-semibold">{problem || purchase.status === "rejected" ? t("proof.againTitle") : t("proof.title")}</h2>
              <ProofUpload purchaseId={purchase.id} purchaseToken={purchaseToken} problem={problem} note={<p className="text-muted-foreground">{t("proof.text")}</p>} onSent={sent} onFailed={failed} />
            </section>
          )}
          <PurchaseTimeline events={history} />
        </div>
      </div>
    </div>
  );
}

function Loading() {
  const t = useTranslations("buyerPage");
  return (
    <div className="space-y-6" role="status" aria-label={t("loading")} data-testid="buyer-loading">
      <Skeleton className="h-9 w-48" />
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-80 w-full" />
        <Skeleton className="h-80 w-full" />
      </div>
    </div>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const t = useTranslations("buyerPage");
  return (
    <div className="mx-auto max-w-xl space-y-4 rounded-xl border bg-card p-6 text-center shadow-sm" role="alert" data-testid="buyer-load-failed">
      <h1 className="text-2xl font-bold">{t("errorTitle")}</h1>
      <p className="text-muted-foreground">{t("errorText")}</p>
      <Button type="button" variant="outline" onClick={onRetry}>
        <RefreshCw aria-hidden />
        {t("retry")}
      </Button>
    </div>
  );
}
