"use client";

import { useEffect, useRef, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { connectLive, liveUrl, type LiveState, type NewPurchaseNotice } from "@/lib/admin/live";
import { formatUsd } from "@/lib/format";
import { notify } from "@/lib/notify";

/**
 * The live connection while the dashboard is open: a 'Nueva Compra' toast naming the customer,
 * with 'Ver' opening the purchase, and a refresh of the purchase lists for every new purchase
 * (SPEC §2, §7); after a reconnect, a refresh too, for the purchases made while it was down.
 * Opened with `token` (null: none, for a role that does not see purchases, and no state), and
 * opened again when it changes: a password change ends the connection of the old one.
 */
export function useLiveNotices({
  token,
  onPurchase,
  onReconnected,
  onView,
  onRefused,
}: {
  token: string | null;
  onPurchase: () => void;
  onReconnected: () => void;
  onView: (notice: NewPurchaseNotice) => void;
  /** The server refused the token (close 1008), saying why. */
  onRefused: (reason: string) => void;
}): LiveState | null {
  const t = useTranslations("admin.live");
  const locale = useLocale();
  const [state, setState] = useState<LiveState>("connecting");
  const handlers = useRef({ onPurchase, onReconnected, onView, onRefused, t, locale });
  useEffect(() => {
    handlers.current = { onPurchase, onReconnected, onView, onRefused, t, locale };
  });

  useEffect(() => {
    if (!token) return;
    return connectLive({
      url: liveUrl(window.location),
      token: () => token,
      onState: setState,
      onRefused: (reason) => handlers.current.onRefused(reason),
      onAuthenticated: (again) => {
        if (again) handlers.current.onReconnected();
      },
      onPurchase: (notice) => {
        const { t: tr, locale: lang } = handlers.current;
        notify.info(tr("newPurchase"), {
          description: tr("newPurchaseText", {
            name: notice.customerName,
            count: notice.ticketCount,
            total: formatUsd(notice.totalAmount, lang),
            reference: notice.reference,
          }),
          duration: 8000,
          action: { label: tr("view"), onClick: () => handlers.current.onView(notice) },
        });
        handlers.current.onPurchase();
      },
    });
  }, [token]);

  return token ? state : null;
}
