"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { AlertTriangle, CheckCircle2 } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { ProofUpload } from "./proof-upload";

/** On the receipt, when the proof did not arrive: why, and the same upload again. */
export function ProofRetry({ purchaseId, purchaseToken, reference, problem }: { purchaseId: number; purchaseToken: string; reference: string; problem: string }) {
  const t = useTranslations("receipt");
  const [sent, setSent] = useState(false);

  if (sent) {
    return (
      <Alert variant="success" data-testid="proof-retry-sent">
        <CheckCircle2 aria-hidden />
        <AlertTitle>{t("proofSentTitle")}</AlertTitle>
        <AlertDescription>{t("proofSentText")}</AlertDescription>
      </Alert>
    );
  }

  return (
    <Alert variant="destructive" className="min-w-0" data-testid="proof-failed">
      <AlertTriangle aria-hidden />
      <AlertTitle>{t("proofFailedTitle")}</AlertTitle>
      <AlertDescription className="min-w-0 space-y-3">
        <ProofUpload
          purchaseId={purchaseId}
          purchaseToken={purchaseToken}
          problem={problem}
          note={<p>{t("proofFailedText", { reference })}</p>}
          onSent={() => setSent(true)}
        />
      </AlertDescription>
    </Alert>
  );
}
