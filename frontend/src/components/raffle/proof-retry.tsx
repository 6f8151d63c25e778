"use client";

import { useId, useState } from "react";
import { useTranslations } from "next-intl";
import { AlertTriangle, CheckCircle2, Loader2, Upload } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { uploadProof } from "@/lib/api/client";
import { errorMessage } from "@/lib/api/fetcher";
import { PROOF_ACCEPT, checkProofFile } from "@/lib/validations/purchase";
import { useValidationMessages } from "./purchase-form";

/**
 * On the receipt, when the proof did not arrive: why, and the same upload again (request an
 * upload → PUT the file → attach it with the purchase's token).
 */
export function ProofRetry({ purchaseId, purchaseToken, reference, problem: firstProblem }: { purchaseId: number; purchaseToken: string; reference: string; problem: string }) {
  const t = useTranslations("receipt");
  const messages = useValidationMessages();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState(firstProblem);
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");

  if (state === "sent") {
    return (
      <Alert variant="success" data-testid="proof-retry-sent">
        <CheckCircle2 aria-hidden />
        <AlertTitle>{t("proofSentTitle")}</AlertTitle>
        <AlertDescription>{t("proofSentText")}</AlertDescription>
      </Alert>
    );
  }

  async function send() {
    const invalid = checkProofFile(file, messages);
    if (invalid || !file) {
      setProblem(invalid ? `${invalid.title} - ${invalid.message}` : t("proofChoose"));
      return;
    }
    setState("sending");
    try {
      await uploadProof(file, { purchaseId, purchaseToken });
      setState("sent");
    } catch (error) {
      console.error("payment proof upload failed again", error);
      setProblem(errorMessage(error, t("proofNetwork")));
      setState("idle");
    }
  }

  return (
    <Alert variant="destructive" className="min-w-0" data-testid="proof-failed">
      <AlertTriangle aria-hidden />
      <AlertTitle>{t("proofFailedTitle")}</AlertTitle>
      <AlertDescription className="min-w-0 space-y-3">
        <p data-testid="proof-failed-reason">{problem}</p>
        <p>{t("proofFailedText", { reference })}</p>
        <div className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center">
          <label
            htmlFor={inputId}
            className="flex min-w-0 grow cursor-pointer items-center gap-2 rounded-md border border-dashed bg-background px-3 py-2 text-foreground has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
          >
            <Upload aria-hidden className="size-4 shrink-0" />
            <span className="min-w-0 break-words">{file?.name ?? t("proofChoose")}</span>
            <input
              id={inputId}
              type="file"
              accept={PROOF_ACCEPT}
              className="sr-only"
              data-testid="proof-retry-input"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <Button type="button" size="sm" onClick={send} disabled={state === "sending" || !file} data-testid="proof-retry-send">
            {state === "sending" && <Loader2 aria-hidden className="animate-spin" />}
            {t("proofSend")}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
