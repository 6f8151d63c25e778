"use client";

import { useEffect, useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { Loader2, RotateCcw, Save } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { saveBranding } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { Branding } from "@/lib/api/types";
import { COLOR_FIELDS, colorsWithDefaults, hexToHsl, hslToHex, normalizeHsl, swatchColor, type ColorField } from "@/lib/admin/hsl";
import { notify } from "@/lib/notify";
import { brandingCss, foregroundFor } from "@/lib/theme";
import { useBranding } from "@/lib/swr/use-branding";
import { brandingSchema, COUNT_FIELDS, FIGURE_FIELDS, LINK_FIELDS, type BrandingValues } from "@/lib/validations/branding";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";

type Draft = BrandingValues;

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

/**
 * The branding tab (SPEC §2; the settings permission, owners): name, logo, description, five
 * colours (typed as HSL or hex, or picked; stored as the spec's HSL), and the site's contact,
 * links and figures.
 */
export function BrandingTab() {
  const t = useTranslations("admin.branding");
  const { data: branding, mutate } = useBranding();
  const router = useRouter();
  const schema = useMemo(() => brandingSchema({ invalidHsl: t("invalidHsl"), invalidCount: t("site.invalidCount") }), [t]);
  // `values`: the saved branding replaces the form whenever it changes (loaded, saved).
  const saved = useMemo(() => draftOf(branding), [branding]);
  // Errors follow typing: a colour is checked as it is typed, its swatch beside it.
  const { control, handleSubmit, setError, reset, formState } = useForm<Draft>({ resolver: zodResolver(schema), values: saved, mode: "onChange" });
  const draft = useWatch({ control }) as Draft;
  // Computed here, not from formState.isValid (which the resolver settles a moment later), so
  // the save button is off in the same render as the bad value.
  const blocked = !schema.safeParse(draft).success;
  const pending = formState.isSubmitting;
  useEffect(() => {
    void mutate();
  }, [mutate]);

  async function save(values: Draft) {
    const body: Branding = {
      companyName: values.companyName.trim(),
      logoUrl: values.logoUrl.trim(),
      description: values.description.trim(),
      primaryColor: normalizeHsl(values.primaryColor) as string,
      secondaryColor: normalizeHsl(values.secondaryColor) as string,
      accentColor: normalizeHsl(values.accentColor) as string,
      dangerColor: normalizeHsl(values.dangerColor) as string,
      successColor: normalizeHsl(values.successColor) as string,
      contactEmail: values.contactEmail.trim(),
      contactPhone: values.contactPhone.trim(),
      whatsappUrl: values.whatsappUrl.trim(),
      facebookUrl: values.facebookUrl.trim(),
      instagramUrl: values.instagramUrl.trim(),
      tiktokUrl: values.tiktokUrl.trim(),
      whatsappChannelUrl: values.whatsappChannelUrl.trim(),
      lotteryResultsUrl: values.lotteryResultsUrl.trim(),
      videoUrls: [values.video1.trim(), values.video2.trim()],
      participants: Number(values.participants),
      prizes: values.prizes.trim(),
      countries: Number(values.countries),
      rafflesPageParticipants: Number(values.rafflesPageParticipants),
      rafflesPagePrizes: values.rafflesPagePrizes.trim(),
      rafflesPageWinners: Number(values.rafflesPageWinners),
    };
    try {
      const stored = await saveBranding(body);
      // Apply the colours here at once; the server render of every page reads them too.
      const style = document.getElementById("branding-theme");
      if (style) style.textContent = brandingCss(stored ?? body);
      await mutate(stored ?? body, { revalidate: false });
      // The stored form of what was typed ("hsl(200, 80%, 40%)" → "200 80% 40%"), also when
      // `values` did not change.
      reset(draftOf(stored ?? body));
      router.refresh();
      notify.success(t("saved"));
    } catch (error) {
      applyServerFieldErrors(error, setError, Object.keys(saved) as (keyof Draft)[]);
      notify.error(t("error"), { description: errorMessage(error, t("errorDefault")) });
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
        <CardContent>
          <form onSubmit={handleSubmit(save)} noValidate className="grid gap-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField control={control} name="companyName" label={t("companyName")}>
                {(field) => <Input {...field} maxLength={100} />}
              </FormField>
              <FormField control={control} name="logoUrl" label={t("logoUrl")}>
                {(field) => <Input {...field} type="url" inputMode="url" placeholder="https://…" />}
              </FormField>
            </div>
            <FormField control={control} name="description" label={t("description")}>
              {(field) => <Textarea {...field} rows={2} maxLength={500} />}
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              {COLOR_FIELDS.map((name) => (
                <FormField key={name} control={control} name={name} label={t(`colors.${name}`)}>
                  {(field) => (
                    <div className="flex items-center gap-2">
                      {/* The swatch shows what is typed; a click on it opens the browser's colour
                          picker, whose choice is written into the field in HSL (issue 31). */}
                      <span className="relative size-10 shrink-0 rounded-md has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50">
                        <span
                          role="img"
                          aria-label={t("swatch", { name: t(`colors.${name}`) })}
                          data-testid={`swatch-${name}`}
                          className="absolute inset-0 rounded-md border shadow-xs"
                          style={{ background: preview[name] }}
                        />
                        <input
                          type="color"
                          aria-label={t("pick", { name: t(`colors.${name}`) })}
                          data-testid={`picker-${name}`}
                          className="absolute inset-0 size-full cursor-pointer opacity-0"
                          value={hslToHex(field.value) ?? "#000000"}
                          onChange={(e) => field.onChange(hexToHsl(e.target.value) ?? field.value)}
                          onBlur={field.onBlur}
                          disabled={field.disabled}
                        />
                      </span>
                      <Input {...field} className="font-mono text-sm" spellCheck={false} />
                    </div>
                  )}
                </FormField>
              ))}
            </div>
            {/* The rule above the group is its wrapper's: a fieldset's own border runs beside its legend. */}
            <div className="border-t pt-4" data-testid="branding-site-rule">
              <fieldset className="grid gap-4" data-testid="branding-site">
                <legend className="mb-1 text-base font-semibold">{t("site.title")}</legend>
                <p className="text-sm text-muted-foreground">{t("site.hint")}</p>
                <div className="grid gap-4 sm:grid-cols-2">
                  {LINK_FIELDS.map((name) => (
                    <FormField key={name} control={control} name={name} label={t(`site.${name}`)}>
                      {(field) => <Input {...field} type={name === "contactEmail" ? "email" : name === "contactPhone" ? "tel" : "url"} spellCheck={false} />}
                    </FormField>
                  ))}
                </div>
                <div className="grid gap-4 sm:grid-cols-3">
                  {FIGURE_FIELDS.map((name) => (
                    <FormField key={name} control={control} name={name} label={t(`site.${name}`)}>
                      {(field) => <Input {...field} inputMode={(COUNT_FIELDS as readonly string[]).includes(name) ? "numeric" : undefined} />}
                    </FormField>
                  ))}
                </div>
              </fieldset>
            </div>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => reset(saved)} disabled={pending}>
                <RotateCcw aria-hidden />
                {t("reset")}
              </Button>
              <Button type="submit" disabled={pending || blocked} data-testid="save-branding">
                {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Save aria-hidden />}
                {pending ? t("saving") : t("save")}
              </Button>
            </div>
          </form>
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
