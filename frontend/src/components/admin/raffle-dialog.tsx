"use client";

import { useId, useState } from "react";
import { useTranslations } from "next-intl";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { saveRaffle } from "@/lib/api/admin";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import type { Raffle } from "@/lib/api/types";
import { dayOfUtc, todayUtc } from "@/lib/admin/dates";
import { notify } from "@/lib/notify";
import {
  MAX_TICKETS_LIMIT,
  RAFFLE_DEFAULTS,
  RAFFLE_STATUSES,
  raffleInput,
  validateRaffle,
  type RaffleDraft,
  type RaffleErrors,
} from "@/lib/validations/raffle";
import { DateField } from "./date-field";

function draftOf(raffle: Raffle | null): RaffleDraft {
  if (!raffle) {
    return {
      title: "",
      description: "",
      price: RAFFLE_DEFAULTS.price,
      maxTickets: RAFFLE_DEFAULTS.maxTickets,
      minTicketsPerPurchase: "",
      maxTicketsPerPurchase: "",
      drawDate: todayUtc(),
      status: RAFFLE_DEFAULTS.status,
      image: "",
    };
  }
  return {
    title: raffle.title,
    description: raffle.description,
    price: raffle.price,
    maxTickets: String(raffle.maxTickets),
    minTicketsPerPurchase: raffle.minTicketsPerPurchase?.toString() ?? "",
    maxTicketsPerPurchase: raffle.maxTicketsPerPurchase?.toString() ?? "",
    drawDate: dayOfUtc(raffle.drawDate),
    status: raffle.status,
    image: raffle.image,
  };
}

/** Create or edit a raffle (SPEC §2 "Dialogs", §5 "Raffle form"). */
export function RaffleDialog({ raffle, onClose, onSaved }: { raffle: Raffle | null; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("admin.raffleForm");
  const tr = useTranslations("admin.raffles");
  const tc = useTranslations("admin.common");
  const [draft, setDraft] = useState<RaffleDraft>(() => draftOf(raffle));
  const [errors, setErrors] = useState<RaffleErrors>({});
  const [pending, setPending] = useState(false);
  // The draw date's text cannot be read: saving would store the previous day instead.
  const [drawDateUnreadable, setDrawDateUnreadable] = useState(false);
  const id = useId();
  const set = (key: keyof RaffleDraft) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  const messages = {
    required: t("required"),
    priceMin: t("priceMin"),
    priceStep: t("priceStep"),
    maxTicketsRange: t("maxTicketsRange"),
    limitMin: t("limitMin"),
    limitsOrder: t("limitsOrder"),
  };
  // SPEC §5: create/update stays disabled until title, description and price are filled.
  const incomplete = !draft.title.trim() || !draft.description.trim() || !draft.price.trim();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const found = validateRaffle(draft, messages);
    setErrors(found);
    if (drawDateUnreadable) {
      notify.error(tr("processError"), { description: t("drawDateUnreadable") });
      return;
    }
    if (Object.keys(found).length) {
      notify.error(tr("processError"), { description: Object.values(found)[0] });
      return;
    }
    setPending(true);
    try {
      await saveRaffle(raffleInput(draft, raffle ? raffle.endDate : null), raffle?.id);
      notify.success(raffle ? tr("updated") : tr("created"), { description: draft.title.trim() });
      onSaved();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.body?.fields) setErrors(error.body.fields as RaffleErrors);
      notify.error(raffle ? tr("updateError") : tr("createError"), { description: errorMessage(error, tr("processError")) });
      setPending(false);
    }
  }

  const field = (key: keyof RaffleDraft) => ({
    id: `${id}-${key}`,
    value: draft[key],
    onChange: set(key),
    "aria-invalid": errors[key] ? true : undefined,
    "aria-describedby": errors[key] ? `${id}-${key}-error` : undefined,
  });
  const error = (key: keyof RaffleDraft) =>
    errors[key] ? (
      <p id={`${id}-${key}-error`} className="text-xs font-medium text-danger-strong">
        {errors[key]}
      </p>
    ) : null;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-xl" closeLabel={tc("close")} data-testid="raffle-dialog">
        <DialogHeader>
          <DialogTitle>{raffle ? t("editTitle") : t("createTitle")}</DialogTitle>
          <DialogDescription>{t("description")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-title`}>{t("title")}</Label>
            <Input {...field("title")} maxLength={200} />
            {error("title")}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-description`}>{t("descriptionLabel")}</Label>
            <Textarea {...field("description")} rows={3} maxLength={5000} />
            {error("description")}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-price`}>{t("price")}</Label>
              <Input {...field("price")} type="number" inputMode="decimal" step="0.01" min="0.01" />
              {error("price")}
            </div>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-maxTickets`}>{t("maxTickets")}</Label>
              <Input {...field("maxTickets")} type="number" inputMode="numeric" min={1} max={MAX_TICKETS_LIMIT} step={1} />
              {error("maxTickets") ?? <p className="text-xs text-muted-foreground">{t("maxTicketsHint")}</p>}
            </div>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-minTicketsPerPurchase`}>{t("minPerPurchase")}</Label>
              <Input {...field("minTicketsPerPurchase")} type="number" inputMode="numeric" min={1} step={1} />
              {error("minTicketsPerPurchase")}
            </div>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-maxTicketsPerPurchase`}>{t("maxPerPurchase")}</Label>
              <Input {...field("maxTicketsPerPurchase")} type="number" inputMode="numeric" min={1} step={1} />
              {error("maxTicketsPerPurchase")}
            </div>
            <p className="text-xs text-muted-foreground sm:col-span-2">{t("limitsHint")}</p>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-drawDate`}>{t("drawDate")}</Label>
              <DateField
                id={`${id}-drawDate`}
                value={draft.drawDate}
                onChange={(day) => setDraft((d) => ({ ...d, drawDate: day }))}
                invalid={Boolean(errors.drawDate)}
                onUnreadableChange={setDrawDateUnreadable}
                describedBy={errors.drawDate ? `${id}-drawDate-error` : undefined}
              />
              {error("drawDate") ?? <p className="text-xs text-muted-foreground">{t("drawDateHint")}</p>}
            </div>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-status`}>{t("status")}</Label>
              <NativeSelect id={`${id}-status`} value={draft.status} onChange={set("status")} className="h-11">
                {RAFFLE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(`statusOptions.${s}`)}
                  </option>
                ))}
                {!(RAFFLE_STATUSES as readonly string[]).includes(draft.status) && <option value={draft.status}>{draft.status}</option>}
              </NativeSelect>
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-image`}>{t("image")}</Label>
            <Input {...field("image")} type="url" inputMode="url" placeholder="https://…" />
            {error("image") ?? <p className="text-xs text-muted-foreground">{t("imageHint")}</p>}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={pending || incomplete} data-testid="save-raffle">
              {pending && <Loader2 aria-hidden className="animate-spin" />}
              {pending ? t("saving") : raffle ? t("update") : t("create")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
