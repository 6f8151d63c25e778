"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { Check, Copy, ExternalLink, KeyRound } from "lucide-react";
import { Button, buttonVariants } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { notify } from "@/lib/notify";

/** The buyer's page as a full address on this site ("/compra/12#key" → "https://…/compra/12#key"). */
export function buyerPageUrl(path: string, origin: string): string {
  return new URL(path, origin).toString();
}

/**
 * On the receipt: the private link to the buyer's own page ('Sigue tu compra'), to copy or open,
 * and the advice to keep it (it is the only way back without the e-mail).
 */
export function BuyerLink({ path }: { path: string }) {
  const t = useTranslations("receipt");
  const url = buyerPageUrl(path, window.location.origin);
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      notify.success(t("copied"));
    } catch {
      input.current?.select();
      notify.error(t("copyFailed"));
    }
  }

  return (
    <section aria-labelledby="follow-title" className="min-w-0 space-y-2 rounded-md border border-primary/30 bg-primary/5 p-3 text-sm" data-testid="buyer-link">
      <h3 id="follow-title" className="flex items-center gap-2 font-semibold">
        <KeyRound aria-hidden className="size-4" />
        {t("followTitle")}
      </h3>
      <p className="text-muted-foreground">{t("followText")}</p>
      <Input ref={input} readOnly value={url} aria-label={t("followLabel")} onFocus={(e) => e.currentTarget.select()} className="h-9 font-mono text-xs" data-testid="buyer-link-url" />
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" variant="outline" onClick={copy} data-testid="buyer-link-copy">
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? t("copied") : t("copy")}
        </Button>
        <a href={url} target="_blank" rel="noopener" className={buttonVariants({ size: "sm", variant: "ghost" })}>
          <ExternalLink aria-hidden />
          {t("open")}
        </a>
      </div>
    </section>
  );
}
