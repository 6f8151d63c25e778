"use client";

import { useState } from "react";
import useSWR from "swr";
import { apiJson } from "@/lib/api/fetcher";
import type { ProofQueue } from "@/lib/api/types";
import { proofQueueQuery, type QueueFilter, type QueueOrder } from "@/lib/admin/proof-queue";
import { LIVE_READ, swrKeys, useAdminKey } from "./cache";

/** While a proof in the queue has no light yet, the queue asks again this often. */
export const QUEUE_REFRESH_MS = 4_000;

/** The first `pages` pages of the queue, one after the other (each starts after the last one's end). */
async function readPages([url, pages]: readonly [string, number]): Promise<ProofQueue> {
  const items: ProofQueue["items"] = [];
  const seen = new Set<number>();
  let after: number | null = null;
  for (let page = 0; page < pages; page++) {
    const answer: ProofQueue = await apiJson<ProofQueue>(after === null ? url : `${url}&after=${after}`);
    for (const item of answer.items) {
      if (!seen.has(item.purchase.id)) {
        seen.add(item.purchase.id);
        items.push(item);
      }
    }
    after = answer.nextAfter ?? null;
    if (after === null) break;
  }
  return { items, nextAfter: after };
}

/**
 * The reviewer's queue with a light filter and an order, and 'Cargar más' (`loadMore`: one more
 * page, read after `nextAfter`). Its key is the first page's path and the number of pages, so a
 * decision or a live notice (which make "/api/admin/proof-queue" stale, see cache.ts) reads the
 * pages shown again. Asked again every few seconds while a proof's check has not come to a light.
 */
export function useProofQueue(light: QueueFilter, order: QueueOrder) {
  const url = useAdminKey(swrKeys.proofQueue(proofQueueQuery({ light, order })));
  // Back to one page when the filter or the order changes.
  const [shown, setShown] = useState<{ url: string | null; pages: number }>({ url, pages: 1 });
  if (shown.url !== url) setShown({ url, pages: 1 });
  const pages = shown.url === url ? shown.pages : 1;
  const swr = useSWR<ProofQueue, unknown, readonly [string, number] | null>(url ? ([url, pages] as const) : null, readPages, {
    ...LIVE_READ,
    keepPreviousData: true,
    refreshInterval: (queue) => (queue?.items.some((item) => !item.light) ? QUEUE_REFRESH_MS : 0),
  });
  return {
    ...swr,
    pages,
    loadMore: () => setShown({ url, pages: pages + 1 }),
  };
}
