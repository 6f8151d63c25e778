"use client";

import { useId, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { Loader2, Upload } from "lucide-react";
import { Button } from "@/components/ui/button";
import { uploadProof } from "@/lib/api/client";
import { errorMessage } from "@/lib/api/fetcher";
import { PROOF_ACCEPT, checkProofFile } from "@/lib/validations/purchase";
import { useValidationMessages } from "./purchase-form";

/**
 * Choose a proof file and send it with the purchase's key: the same client checks (size, type)
 * and the same safe flow as the purchase form (request an upload → PUT the file → attach). Says
 * why the last attempt failed, in the server's words when it gave some (a hold that ended: 409
 * `hold_expired`). Used on the receipt after a failed upload and on the buyer's own page.
 */
export function ProofUpload({
  purchaseId,
  purchaseToken,
  problem: firstProblem = null,
  note,
  onSent,
  onFailed,
}: {
  purchaseId: number;
  purchaseToken: string;
  /** Why the previous proof did not arrive, when one was tried. */
  problem?: string | null;
  /** Said after the problem, before the file chooser. */
  note?: ReactNode;
  onSent: () => void;
  /** The upload failed; the component already shows why. */
  onFailed?: (error: unknown) => void;
}) {
  const t = useTranslations("receipt");
  const messages = useValidationMessages();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(firstProblem);
  const [sending, setSending] = useState(false);

  async function send() {
    const invalid = checkProofFile(file, messages);
    if (invalid || !file) {
      setProblem(invalid ? `${invalid.title} - ${invalid.message}` : t("proofChoose"));
      return;
    }
    setSending(true);
    try {
      await uploadProof(file, { purchaseId, purchaseToken });
      setSending(false);
      onSent();
    } catch (error) {
      console.error("payment proof upload failed again", error);
      setProblem(errorMessage(error, t("proofNetwork")));
      setSending(false);
      onFailed?.(error);
    }
  }

  return (
    <div className="min-w-0 space-y-3">
      {problem && <p data-testid="proof-failed-reason">{problem}</p>}
      {note}
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
        <Button type="button" size="sm" onClick={send} disabled={sending || !file} data-testid="proof-retry-send">
          {sending && <Loader2 aria-hidden className="animate-spin" />}
          {t("proofSend")}
        </Button>
      </div>
    </div>
  );
}
