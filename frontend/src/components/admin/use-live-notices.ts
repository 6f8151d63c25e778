"use client";

import { useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { storedToken } from "@/lib/api/fetcher";
import { connectLive, liveUrl, type LiveState } from "@/lib/admin/live";
import { formatUsd } from "@/lib/format";
import { notify } from "@/lib/notify";

/**
 * The live connection while the dashboard is open: a 'Nueva Compra' toast naming the customer
 * and a refresh of the purchase lists for every new purchase (SPEC §2, §7).
 */
export function useLiveNotices({ onPurchase, onRefused }: { onPurchase: () => void; onRefused: () => void }): LiveState {
  const t = useTranslations("admin.live");
  const [state, setState] = useState<LiveState>("connecting");
  const handlers = useRef({ onPurchase, onRefused, t });
  useEffect(() => {
    handlers.current = { onPurchase, onRefused, t };
  });

  useEffect(() => {
    return connectLive({
      url: liveUrl(window.location),
      token: storedToken,
      onState: setState,
      onRefused: () => handlers.current.onRefused(),
      onPurchase: (notice) => {
        const { t: tr } = handlers.current;
        notify.info(tr("newPurchase"), {
          description: tr("newPurchaseText", {
            name: notice.customerName,
            count: notice.ticketCount,
            total: formatUsd(notice.totalAmount),
            reference: notice.reference,
          }),
          duration: 8000,
        });
        handlers.current.onPurchase();
      },
    });
  }, []);

  return state;
}
