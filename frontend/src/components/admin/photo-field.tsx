"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { ImageUp, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { uploadPhoto } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";

/**
 * An image's address, typed or pasted, or a photo uploaded from the device: the API turns it
 * upright, resizes it and serves it, and its address fills the field. A preview shows what the
 * address points at.
 */
export function PhotoField({
  id,
  value,
  onChange,
  onBlur,
  name,
  invalid,
  describedBy,
  maxLength,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  invalid?: boolean;
  describedBy?: string;
  maxLength?: number;
}) {
  const t = useTranslations("admin.photoField");
  const file = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [broken, setBroken] = useState<string | null>(null);
  const address = value.trim();

  async function upload(chosen: File | undefined) {
    if (!chosen) return;
    setUploading(true);
    try {
      const { url } = await uploadPhoto(chosen);
      onChange(url);
      notify.success(t("uploaded"));
    } catch (error) {
      notify.error(t("uploadError"), { description: errorMessage(error, t("uploadError")) });
    } finally {
      setUploading(false);
      if (file.current) file.current.value = "";
    }
  }

  return (
    <div className="grid gap-2">
      <div className="flex min-w-0 flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          type="text"
          inputMode="url"
          placeholder="https://…"
          maxLength={maxLength}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className="min-w-0 flex-1"
        />
        <Button type="button" variant="outline" className="shrink-0" disabled={uploading} onClick={() => file.current?.click()}>
          {uploading ? <Loader2 aria-hidden className="animate-spin" /> : <ImageUp aria-hidden />}
          {uploading ? t("uploading") : t("upload")}
        </Button>
        <input
          ref={file}
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp"
          className="sr-only"
          tabIndex={-1}
          aria-label={t("upload")}
          data-testid="photo-file"
          onChange={(e) => void upload(e.target.files?.[0])}
        />
      </div>
      {address && broken !== address && (
        <img src={address} alt={t("preview")} className="h-24 w-fit max-w-full rounded-md border object-contain" loading="lazy" onError={() => setBroken(address)} />
      )}
    </div>
  );
}
