"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { ExternalLink, ZoomIn } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTitle } from "@/components/ui/dialog";
import { proofKind, uploadsFallback } from "@/lib/admin/proof";

/**
 * A payment proof: an image (at most 400 px, click to zoom) or an embedded PDF (400 px frame)
 * with open-in-new-tab. An image that fails to load is tried at `/uploads/{file}`; a link whose
 * name does not tell its type is tried as an image first, then framed as a PDF.
 */
export function PaymentProof({ link, customerName }: { link: string; customerName: string }) {
  const t = useTranslations("admin.detail");
  const tc = useTranslations("admin.common");
  const known = proofKind(link);
  const [src, setSrc] = useState(link);
  const [kind, setKind] = useState<"image" | "pdf" | "failed">(known === "pdf" ? "pdf" : "image");
  const [zoom, setZoom] = useState(false);

  function onImageError() {
    const fallback = uploadsFallback(link);
    if (src === link && fallback) {
      setSrc(fallback);
    } else if (known === "unknown") {
      setSrc(link);
      setKind("pdf");
    } else {
      setKind("failed");
    }
  }

  const openLink = (
    <Button asChild variant="outline" size="sm">
      <a href={src} target="_blank" rel="noopener noreferrer">
        <ExternalLink aria-hidden />
        {t("openNewTab")}
      </a>
    </Button>
  );

  if (kind === "pdf") {
    return (
      <div className="grid gap-2" data-testid="proof-pdf">
        <iframe src={src} title={t("pdfTitle")} className="h-[400px] w-full rounded-md border bg-muted" />
        <div>{openLink}</div>
      </div>
    );
  }
  if (kind === "failed") {
    return (
      <div className="grid gap-2" role="alert">
        <p className="text-sm text-danger-strong">{t("proofError")}</p>
        <div>{openLink}</div>
      </div>
    );
  }
  return (
    <div className="grid gap-2" data-testid="proof-image">
      <button
        type="button"
        onClick={() => setZoom(true)}
        className="group relative w-fit overflow-hidden rounded-md border bg-muted outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        aria-label={t("zoom")}
      >
        { }
        <img src={src} alt={t("proofAlt", { name: customerName })} onError={onImageError} className="block max-h-[400px] max-w-full object-contain" />
        <span className="absolute right-2 top-2 rounded-md bg-background/90 p-1 opacity-80 group-hover:opacity-100">
          <ZoomIn aria-hidden className="size-4" />
        </span>
      </button>
      <div>{openLink}</div>
      <Dialog open={zoom} onOpenChange={setZoom}>
        <DialogContent className="max-w-[min(96vw,1200px)] p-2 sm:p-3" closeLabel={tc("close")} data-testid="proof-zoom">
          <DialogTitle className="sr-only">{t("zoomTitle")}</DialogTitle>
          { }
          <img src={src} alt={t("proofAlt", { name: customerName })} className="mx-auto max-h-[88dvh] w-auto object-contain" />
        </DialogContent>
      </Dialog>
    </div>
  );
}
