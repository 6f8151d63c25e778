"use client";

import { useTranslations } from "next-intl";
import { Copy, Loader2, RotateCw, ShieldAlert, ShieldCheck } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { AuditVerification } from "@/lib/api/types";
import { notify } from "@/lib/notify";
import { useAuditVerification } from "@/lib/swr/use-audit";

/** How much of the head's hash the banner shows (the rest is in its title and the copy button). */
export const SHORT_HASH = 12;

/** What a broken chain's check found, worded plainly ("la entrada 42 fue modificada"). */
export function useProblemText(): (v: AuditVerification) => string {
  const t = useTranslations("admin.audit.verification");
  return (v) => {
    const seq = v.atSeq ?? 0;
    switch (v.problem) {
      case "edited":
        return t("edited", { seq });
      case "missing":
        return t("missing", { seq });
      case "truncated":
        return seq === 0 ? t("truncatedEmpty", { head: v.headSeq }) : t("truncated", { seq, head: v.headSeq });
      default:
        return t("unknown", { problem: [v.problem, v.atSeq].filter((p) => p != null).join(" @ ") || "?" });
    }
  };
}

/**
 * The check of the whole chain, at the top of the tab: green with the entries and the head's
 * fingerprint (to copy elsewhere), or red with where it breaks; 'Verificar de nuevo' asks again.
 */
export function VerificationBanner() {
  const t = useTranslations("admin.audit.verification");
  const problemText = useProblemText();
  const { data, error, isValidating, mutate } = useAuditVerification();
  const again = (
    <Button type="button" variant="outline" size="sm" onClick={() => void mutate()} disabled={isValidating} data-testid="audit-verify-again">
      {isValidating ? <Loader2 aria-hidden className="animate-spin" /> : <RotateCw aria-hidden />}
      {t("again")}
    </Button>
  );

  // A check that failed says so, even over an earlier answer: that answer is no longer known to hold.
  if (error && !isValidating) {
    return (
      <Alert variant="destructive" data-testid="audit-verification" data-state="error">
        <ShieldAlert aria-hidden />
        <AlertTitle>{t("error")}</AlertTitle>
        <AlertDescription>
          <div>{again}</div>
        </AlertDescription>
      </Alert>
    );
  }
  if (!data) {
    return (
      <p role="status" className="flex items-center gap-2 rounded-lg border bg-card px-4 py-3 text-sm text-muted-foreground" data-testid="audit-verification" data-state="checking">
        <Loader2 aria-hidden className="size-4 animate-spin" />
        {t("checking")}
      </p>
    );
  }

  if (data.intact) {
    const copy = () => {
      void navigator.clipboard?.writeText(data.headHash).then(() => notify.success(t("copied")), () => undefined);
    };
    return (
      <Alert variant="success" role="status" data-testid="audit-verification" data-state="intact">
        <ShieldCheck aria-hidden />
        <AlertTitle className="break-words" data-testid="audit-verification-title">
          {t.rich("intact", {
            count: data.verified,
            short: data.headHash.slice(0, SHORT_HASH),
            hash: (chunks) => (
              <code className="font-mono" title={data.headHash}>
                {chunks}
              </code>
            ),
          })}
        </AlertTitle>
        <AlertDescription className="text-muted-foreground">
          <p>{t("intactHelp")}</p>
          <div className="mt-1 flex flex-wrap gap-2">
            <Button type="button" variant="outline" size="sm" onClick={copy} title={data.headHash} data-testid="audit-copy-hash">
              <Copy aria-hidden />
              {t("copy")}
            </Button>
            {again}
          </div>
        </AlertDescription>
      </Alert>
    );
  }

  return (
    <Alert variant="destructive" data-testid="audit-verification" data-state="broken" data-problem={data.problem ?? undefined}>
      <ShieldAlert aria-hidden />
      <AlertTitle className="break-words" data-testid="audit-verification-title">
        {problemText(data)}
      </AlertTitle>
      <AlertDescription>
        <p>{t("brokenHelp", { verified: data.verified })}</p>
        <div className="mt-1">{again}</div>
      </AlertDescription>
    </Alert>
  );
}
