"use client";

import { useEffect, useRef, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { storedToken } from "@/lib/api/fetcher";
import { connectLive, liveUrl, type LiveState, type NewPurchaseNotice } from "@/lib/admin/live";
import { formatUsd } from "@/lib/format";
import { notify } from "@/lib/notify";

/**
 * The live connection while the dashboard is open: a 'Nueva Compra' toast naming the customer,
 * with 'Ver' opening the purchase, and a refresh of the purchase lists for every new purchase
 * (SPEC §2, §7); after a reconnect, a refresh too, for the purchases made while it was down.
 */
export function useLiveNotices({
  onPurchase,
  onReconnected,
  onView,
  onRefused,
}: {
  onPurchase: () => void;
  onReconnected: () => void;
  onView: (notice: NewPurchaseNotice) => void;
  onRefused: () => void;
}): LiveState {
  const t = useTranslations("admin.live");
  const locale = useLocale();
  const [state, setState] = useState<LiveState>("connecting");
  const handlers = useRef({ onPurchase, onReconnected, onView, onRefused, t, locale });
  useEffect(() => {
    handlers.current = { onPurchase, onReconnected, onView, onRefused, t, locale };
  });

  useEffect(() => {
    return connectLive({
      url: liveUrl(window.location),
      token: storedToken,
      onState: setState,
      onRefused: () => handlers.current.onRefused(),
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
  }, []);

  return state;
}
