"use client";

import { useEffect, useId, useState } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { Loader2, RotateCcw, Save } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { saveBranding } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { Branding } from "@/lib/api/types";
import { COLOR_FIELDS, colorsWithDefaults, normalizeHsl, swatchColor, type ColorField } from "@/lib/admin/hsl";
import { notify } from "@/lib/notify";
import { brandingCss, foregroundFor } from "@/lib/theme";
import { useBranding } from "@/lib/swr/use-admin";

/** The site's contact details and links (blank hides one on the site). */
const LINK_FIELDS = ["contactEmail", "contactPhone", "whatsappUrl", "facebookUrl", "instagramUrl", "tiktokUrl", "whatsappChannelUrl", "lotteryResultsUrl", "video1", "video2"] as const;
/** Static marketing figures (SPEC §1): counts shown as "N+", prizes as typed. */
const FIGURE_FIELDS = ["participants", "prizes", "countries", "rafflesPageParticipants", "rafflesPagePrizes", "rafflesPageWinners"] as const;
const COUNT_FIELDS = ["participants", "countries", "rafflesPageParticipants", "rafflesPageWinners"] as const;
type SiteField = (typeof LINK_FIELDS)[number] | (typeof FIGURE_FIELDS)[number];

type Draft = Record<ColorField, string> & Record<SiteField, string> & { companyName: string; logoUrl: string; description: string };

function draftOf(branding: Branding | undefined): Draft {
  return {
    ...colorsWithDefaults(branding),
    companyName: branding?.companyName ?? "",
    logoUrl: branding?.logoUrl ?? "",
    description: branding?.description ?? "",
    contactEmail: branding?.contactEmail ?? "",
    contactPhone: branding?.contactPhone ?? "",
    whatsappUrl: branding?.whatsappUrl ?? "",
    facebookUrl: branding?.facebookUrl ?? "",
    instagramUrl: branding?.instagramUrl ?? "",
    tiktokUrl: branding?.tiktokUrl ?? "",
    whatsappChannelUrl: branding?.whatsappChannelUrl ?? "",
    lotteryResultsUrl: branding?.lotteryResultsUrl ?? "",
    video1: branding?.videoUrls[0] ?? "",
    video2: branding?.videoUrls[1] ?? "",
    participants: String(branding?.participants ?? ""),
    prizes: branding?.prizes ?? "",
    countries: String(branding?.countries ?? ""),
    rafflesPageParticipants: String(branding?.rafflesPageParticipants ?? ""),
    rafflesPagePrizes: branding?.rafflesPagePrizes ?? "",
    rafflesPageWinners: String(branding?.rafflesPageWinners ?? ""),
  };
}

/** The branding tab (SPEC §2, privileged): name, logo, description, five HSL colours, and the site's contact, links and figures. */
export function BrandingTab() {
  const t = useTranslations("admin.branding");
  const { data: branding, mutate } = useBranding();
  const router = useRouter();
  const [draft, setDraft] = useState<Draft>(() => draftOf(branding));
  const [loadedFrom, setLoadedFrom] = useState(branding);
  const [pending, setPending] = useState(false);
  const id = useId();
  if (branding !== loadedFrom) {
    setLoadedFrom(branding);
    setDraft(draftOf(branding));
  }
  useEffect(() => {
    void mutate();
  }, [mutate]);

  const invalid = COLOR_FIELDS.filter((f) => normalizeHsl(draft[f]) === null);
  const badCounts = COUNT_FIELDS.filter((f) => !/^\d{1,10}$/.test(draft[f].trim()));

  async function save() {
    if (invalid.length || badCounts.length) return;
    setPending(true);
    const body: Branding = {
      companyName: draft.companyName.trim(),
      logoUrl: draft.logoUrl.trim(),
      description: draft.description.trim(),
      primaryColor: normalizeHsl(draft.primaryColor) as string,
      secondaryColor: normalizeHsl(draft.secondaryColor) as string,
      accentColor: normalizeHsl(draft.accentColor) as string,
      dangerColor: normalizeHsl(draft.dangerColor) as string,
      successColor: normalizeHsl(draft.successColor) as string,
      contactEmail: draft.contactEmail.trim(),
      contactPhone: draft.contactPhone.trim(),
      whatsappUrl: draft.whatsappUrl.trim(),
      facebookUrl: draft.facebookUrl.trim(),
      instagramUrl: draft.instagramUrl.trim(),
      tiktokUrl: draft.tiktokUrl.trim(),
      whatsappChannelUrl: draft.whatsappChannelUrl.trim(),
      lotteryResultsUrl: draft.lotteryResultsUrl.trim(),
      videoUrls: [draft.video1.trim(), draft.video2.trim()],
      participants: Number(draft.participants),
      prizes: draft.prizes.trim(),
      countries: Number(draft.countries),
      rafflesPageParticipants: Number(draft.rafflesPageParticipants),
      rafflesPagePrizes: draft.rafflesPagePrizes.trim(),
      rafflesPageWinners: Number(draft.rafflesPageWinners),
    };
    try {
      const saved = await saveBranding(body);
      // Apply the colours here at once; the server render of every page reads them too.
      const style = document.getElementById("branding-theme");
      if (style) style.textContent = brandingCss(saved ?? body);
      await mutate(saved ?? body, { revalidate: false });
      router.refresh();
      notify.success(t("saved"));
    } catch (error) {
      notify.error(t("error"), { description: errorMessage(error, t("errorDefault")) });
    } finally {
      setPending(false);
    }
  }

  const preview = Object.fromEntries(COLOR_FIELDS.map((f) => [f, swatchColor(draft[f]) ?? "transparent"])) as Record<ColorField, string>;

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_18rem]" data-testid="branding-tab">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-xl">{t("title")}</h2>
          </CardTitle>
          <CardDescription>{t("subtitle")}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-company`}>{t("companyName")}</Label>
              <Input id={`${id}-company`} value={draft.companyName} onChange={(e) => setDraft({ ...draft, companyName: e.target.value })} maxLength={100} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-logo`}>{t("logoUrl")}</Label>
              <Input id={`${id}-logo`} type="url" inputMode="url" placeholder="https://…" value={draft.logoUrl} onChange={(e) => setDraft({ ...draft, logoUrl: e.target.value })} />
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-description`}>{t("description")}</Label>
            <Textarea id={`${id}-description`} rows={2} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} maxLength={500} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {COLOR_FIELDS.map((field) => {
              const bad = invalid.includes(field);
              const label = t(`colors.${field}`);
              return (
                <div key={field} className="grid content-start gap-1.5">
                  <Label htmlFor={`${id}-${field}`}>{label}</Label>
                  <div className="flex items-center gap-2">
                    <span
                      role="img"
                      aria-label={t("swatch", { name: label })}
                      data-testid={`swatch-${field}`}
                      className="size-10 shrink-0 rounded-md border shadow-xs"
                      style={{ background: preview[field] }}
                    />
                    <Input
                      id={`${id}-${field}`}
                      className="font-mono text-sm"
                      spellCheck={false}
                      value={draft[field]}
                      onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
                      aria-invalid={bad || undefined}
                      aria-describedby={bad ? `${id}-${field}-error` : undefined}
                    />
                  </div>
                  {bad && (
                    <p id={`${id}-${field}-error`} className="text-xs font-medium text-danger-strong">
                      {t("invalidHsl")}
                    </p>
                  )}
                </div>
              );
            })}
          </div>
          <fieldset className="grid gap-4 border-t pt-4" data-testid="branding-site">
            <legend className="pt-4 text-base font-semibold">{t("site.title")}</legend>
            <p className="-mt-2 text-sm text-muted-foreground">{t("site.hint")}</p>
            <div className="grid gap-4 sm:grid-cols-2">
              {LINK_FIELDS.map((field) => (
                <div key={field} className="grid content-start gap-1.5">
                  <Label htmlFor={`${id}-${field}`}>{t(`site.${field}`)}</Label>
                  <Input
                    id={`${id}-${field}`}
                    type={field === "contactEmail" ? "email" : field === "contactPhone" ? "tel" : "url"}
                    spellCheck={false}
                    value={draft[field]}
                    onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
                  />
                </div>
              ))}
            </div>
            <div className="grid gap-4 sm:grid-cols-3">
              {FIGURE_FIELDS.map((field) => {
                const bad = (badCounts as readonly string[]).includes(field);
                return (
                  <div key={field} className="grid content-start gap-1.5">
                    <Label htmlFor={`${id}-${field}`}>{t(`site.${field}`)}</Label>
                    <Input
                      id={`${id}-${field}`}
                      inputMode={(COUNT_FIELDS as readonly string[]).includes(field) ? "numeric" : undefined}
                      value={draft[field]}
                      onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
                      aria-invalid={bad || undefined}
                      aria-describedby={bad ? `${id}-${field}-error` : undefined}
                    />
                    {bad && (
                      <p id={`${id}-${field}-error`} className="text-xs font-medium text-danger-strong">
                        {t("site.invalidCount")}
                      </p>
                    )}
                  </div>
                );
              })}
            </div>
          </fieldset>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setDraft(draftOf(branding))} disabled={pending}>
              <RotateCcw aria-hidden />
              {t("reset")}
            </Button>
            <Button type="button" onClick={save} disabled={pending || invalid.length > 0 || badCounts.length > 0} data-testid="save-branding">
              {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Save aria-hidden />}
              {pending ? t("saving") : t("save")}
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card className="h-fit">
        <CardHeader>
          <CardTitle>{t("preview")}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3">
          <div className="flex items-center gap-2 font-bold">
            <span className="size-8 rounded-md" style={{ background: preview.primaryColor }} />
            {draft.companyName || "Rifa"}
          </div>
          <span
            className="rounded-md px-3 py-2 text-center text-sm font-medium"
            style={{ background: preview.primaryColor, color: `hsl(${foregroundFor(normalizeHsl(draft.primaryColor) ?? "")})` }}
          >
            {t("previewButton")}
          </span>
          <span
            className="rounded-md px-3 py-2 text-center text-sm font-medium"
            style={{ background: preview.secondaryColor, color: `hsl(${foregroundFor(normalizeHsl(draft.secondaryColor) ?? "")})` }}
          >
            {t("previewSecondary")}
          </span>
          <div className="grid grid-cols-3 gap-2">
            {(["accentColor", "dangerColor", "successColor"] as const).map((f) => (
              <span key={f} className="h-8 rounded-md border" style={{ background: preview[f] }} title={t(`colors.${f}`)} />
            ))}
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
